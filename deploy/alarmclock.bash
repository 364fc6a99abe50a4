# bash completion for alarmclock(1). Installed as
# PREFIX/share/bash-completion/completions/alarmclock. Kept in step with the
# commands' --help texts (see alarmclock.1): Tests/alarmclockTests/CompletionTests.swift
# checks every command's options and values against the built binary.

# Alarm ids for ID arguments, from `alarmclock list --json` on the config in use.
_alarmclock_ids() {
  local config=$1 json
  json=$(alarmclock list --json ${config:+--config "$config"} 2>/dev/null) || return 0
  # Pull "id": "..." pairs out without depending on jq.
  grep -o '"id" *: *"[^"]*"' <<<"$json" | sed 's/.*"\([^"]*\)"$/\1/'
}

# Reminder ids, from `alarmclock remind list --all --json`.
_alarmclock_reminder_ids() {
  local config=$1 json
  json=$(alarmclock remind list --all --json ${config:+--config "$config"} 2>/dev/null) || return 0
  grep -o '"id" *: *"[^"]*"' <<<"$json" | sed 's/.*"\([^"]*\)"$/\1/'
}

_alarmclock() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local commands="run check list next play status snooze stop skip unskip reload ring
    add edit remove enable disable remind say-time web help"
  if [ "$cword" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "$commands --help" -- "$cur")
    return
  fi

  local command=${words[1]} config='' i
  for ((i = 2; i < cword; i++)); do
    [ "${words[i]}" = --config ] && config=${words[i + 1]}
  done

  # Values of options.
  case "$prev" in
    --config)
      mapfile -t COMPREPLY < <(compgen -f -X '!*.toml' -- "$cur")
      mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
      return ;;
    --token-file)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
    --state-dir | --sound-dir)
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return ;;
    --log-level)
      mapfile -t COMPREPLY < <(compgen -W "error warning notice info debug" -- "$cur")
      return ;;
    --socket | --stream-socket)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
    --days)
      mapfile -t COMPREPLY < <(compgen -W "daily weekdays weekends never mon tue wed thu
        fri sat sun" -- "$cur")
      return ;;
    --device)
      local devices
      devices=$(aplay -L 2>/dev/null | grep -v '^[[:space:]]')
      mapfile -t COMPREPLY < <(compgen -W "$devices" -- "$cur")
      return ;;
    --sound | --fallback-sound | --fallback | --escalate-sound | --skip-calendar)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
    --sound-order)
      mapfile -t COMPREPLY < <(compgen -W "shuffle rotate" -- "$cur")
      return ;;
    --announce)
      mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur")
      return ;;
    --unset)
      mapfile -t COMPREPLY < <(compgen -W "days date label sound fallback_sound sound_order volume ramp snooze
        max_snoozes ring_for escalate_after escalate_volume escalate_sound announce
        announce_every skip skip_calendars id enabled" -- "$cur")
      return ;;
    --from | --count | --volume | --ramp | --seconds | --label | --date | --time | --snooze \
      | --ring-for | --max-snoozes | --escalate-after | --escalate-volume | --skip | --id \
      | --announce-every \
      | --mixer | --listen | --idle-exit | --due | --notes | --title | --to | --at)
      return ;;
  esac

  local opts
  case "$command" in
    run) opts="--config --state-dir --socket --stream-socket --log-level --no-terminal" ;;
    check) opts="--config" ;;
    list) opts="--config --state-dir --json" ;;
    next) opts="--config --state-dir --from --count --json --socket" ;;
    play) opts="--device --volume --ramp --seconds --loop --mixer --sound-dir --fallback" ;;
    status) opts="--socket --config --json" ;;
    snooze | stop | reload) opts="--socket --config" ;;
    skip | unskip | ring) opts="--socket --config" ;;
    add) opts="--config --days --date --label --sound --fallback-sound --sound-order --volume --ramp --snooze
      --no-snooze --max-snoozes --ring-for --escalate-after --escalate-volume --escalate-sound
      --announce --announce-every --skip --skip-calendar --id --disabled" ;;
    edit) opts="--config --time --days --date --label --sound --fallback-sound --sound-order --volume --ramp
      --snooze --no-snooze --max-snoozes --ring-for --escalate-after --escalate-volume
      --escalate-sound --announce --announce-every --skip --skip-calendar --id --disabled
      --enabled --unset" ;;
    remove | enable | disable) opts="--config" ;;
    web) opts="--listen --token-file --print-url --idle-exit --config --socket --state-dir" ;;
    say-time) opts="--config --state-dir --device --print --at" ;;
    remind)
      local verb=''
      for ((i = 2; i < cword; i++)); do
        case "${words[i]}" in
          --config | --due | --notes | --title | --to | --id) ((i++)) ;;
          -*) ;;
          *) verb=${words[i]}; break ;;
        esac
      done
      case "$verb" in
        '')
          if [[ "$cur" != -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "add list done undone edit move remove" -- "$cur")
            return
          fi
          opts="--due --no-due --notes --no-notes --title --id --to --all --json --config" ;;
        add) opts="--due --notes --id --config" ;;
        list) opts="--all --json --config" ;;
        done | undone | remove) opts="--config" ;;
        edit) opts="--title --due --no-due --notes --no-notes --id --config" ;;
        move) opts="--to --config" ;;
        *) return ;;
      esac
      if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts --help" -- "$cur")
      elif [ "$verb" != add ] && [ "$verb" != list ] && [ "${words[cword - 1]}" = "$verb" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_alarmclock_reminder_ids "$config")" -- "$cur")
      fi
      return ;;
    *) return ;;
  esac

  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts --help" -- "$cur")
    return
  fi
  # Positional arguments.
  local positional=0
  for ((i = 2; i < cword; i++)); do
    case "${words[i]}" in
      --json | --loop | --help | --no-snooze | --disabled | --enabled | --no-terminal \
        | --print-url | --print) ;;
      -*) ((i++)) ;;
      *) ((positional++)) ;;
    esac
  done
  [ "$positional" -eq 0 ] || return
  case "$command" in
    skip | unskip | ring | edit | remove | enable | disable)
      mapfile -t COMPREPLY < <(compgen -W "$(_alarmclock_ids "$config")" -- "$cur") ;;
    play)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  esac
}
complete -F _alarmclock alarmclock
