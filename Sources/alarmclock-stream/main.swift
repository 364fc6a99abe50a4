// alarmclock-stream: the stream helper. Fetches and decodes one radio stream and hands
// the service plain PCM over fds 0 and 1 (see StreamHelperMain); started per connection
// by alarmclock-stream.socket, or as a child of a terminal's `alarmclock run`.
import AlarmStreamHelper

StreamHelperMain.run()
