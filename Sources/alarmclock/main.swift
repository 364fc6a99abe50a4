print("alarmclock")
