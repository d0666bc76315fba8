#!/usr/bin/env bats
# The terminal (DESIGN 12, issue 19): a standard stream that is a terminal
# is never handed to the command; it gets a pty of sbexec's own, relayed
# under the caps, with the caller's window size and its modes given back.
# sbexec is never stopped by the terminal; the signals a client sends
# reach the command. Every test runs on a real pty (ttyrun below), a
# session of its own whose controlling terminal it is, as a login's.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	# ttyrun [-s ROWSxCOLS] [-t SECS] [-e PATTERN=ACTION]... CMD...: CMD
	# as the session leader of a new pty; its output to stdout, its exit
	# status as ttyrun's. Each ACTION (send:TEXT, with Python escapes, or
	# size:ROWSxCOLS; the last "=" ends PATTERN) is taken once PATTERN
	# has shown after the last one.
	cat >"$BATS_FILE_TMPDIR/ttyrun.py" <<-'EOF'
		import fcntl, os, select, struct, sys, termios, time
		def size(fd, spec):
		    r, c = (int(x) for x in spec.split("x"))
		    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", r, c, 0, 0))
		args, acts, geom, limit = sys.argv[1:], [], "24x80", 60
		while args[0].startswith("-"):
		    opt, val, args = args[0], args[1], args[2:]
		    if opt == "-s": geom = val
		    if opt == "-t": limit = float(val)
		    if opt == "-e": acts.append(val.rsplit("=", 1))
		m, s = os.openpty()
		size(s, geom)
		pid = os.fork()
		if pid == 0:
		    os.setsid()
		    fcntl.ioctl(s, termios.TIOCSCTTY, 0)
		    for fd in (0, 1, 2): os.dup2(s, fd)
		    os.execvp(args[0], args)
		os.close(s)
		out, mark, end = b"", 0, time.time() + limit
		while time.time() < end:
		    if acts and acts[0][0].encode() in out[mark:]:
		        mark = len(out)
		        kind, val = acts.pop(0)[1].split(":", 1)
		        if kind == "send": os.write(m, val.encode().decode("unicode_escape").encode("latin-1"))
		        if kind == "size": size(m, val)
		    if select.select([m], [], [], 0.05)[0]:
		        try: d = os.read(m, 65536)
		        except OSError: break
		        if not d: break
		        out += d
		else:
		    os.kill(pid, 9)
		_, st = os.waitpid(pid, 0)
		sys.stdout.buffer.write(out)
		sys.exit(os.waitstatus_to_exitcode(st) & 255)
	EOF
	# ttyprobe: what a command given the caller's terminal did to it
	# (issue 19, item 1): exclusive, then the null line discipline, on
	# each standard stream that is a terminal. 0 when each stream was a
	# terminal and the filter refused both requests (EPERM: not on its
	# allow-list, issue 29).
	cat >"$BATS_FILE_TMPDIR/ttyprobe.c" <<-'EOF'
		#include <errno.h>
		#include <sys/ioctl.h>
		#include <unistd.h>
		static int refused(int rc)
		{
			return rc < 0 && errno == EPERM;
		}
		int main(void)
		{
			int null = 27, tty[3], fd, r = 0;	/* N_NULL */
			/* All asked first: on N_NULL, isatty says no. */
			for (fd = 0; fd < 3; fd++)
				tty[fd] = isatty(fd);
			for (fd = 0; fd < 3; fd++)
				r |= !tty[fd] || !refused(ioctl(fd, TIOCEXCL));
			for (fd = 0; fd < 3; fd++)
				r |= !refused(ioctl(fd, TIOCSETD, &null));
			return r;
		}
	EOF
	gcc -Wall -Werror -o "$BATS_FILE_TMPDIR/ttyprobe" "$BATS_FILE_TMPDIR/ttyprobe.c"
}

setup() {
	common_setup
	SBX="$SBEXEC"
	! landlock || SBX="$IN_CONTAINER $SBEXEC"
	export SBX T
	PID=
}

teardown() {
	[ -z "$PID" ] || kill -KILL "$PID" 2>/dev/null || true
}

# limits MEMBERS [EXTRA]: the test policy with these limits.
limits() {
	policy ", \"limits\": {$1} ${2:-}"
}

# on_tty SCRIPT [TTYRUN OPTIONS...]: SCRIPT (bash, with $SBX for sbexec) on
# a new pty; $output is what the terminal showed, $status bash's.
on_tty() {
	local script=$1
	shift
	run python3 "$BATS_FILE_TMPDIR/ttyrun.py" "$@" bash -c "$script"
}

# The line discipline and the exclusive flag of the script's terminal,
# written to $T/state (on the null discipline, output shows nowhere).
STATE='python3 -c "import fcntl, struct, termios
g = lambda r: struct.unpack(\"i\", fcntl.ioctl(0, r, bytes(4)))[0]
print(\"ldisc=%d excl=%d\" % (g(termios.TIOCGETD), g(0x80045440)))" >"$T/state"'

@test "the command cannot make the caller's terminal exclusive or change its line discipline" {
	on_tty "$SBX sh -c 'exec $BATS_FILE_TMPDIR/ttyprobe'; echo probe=\$?
		$STATE; exec 3<>/dev/tty && echo after-run"
	assert_success
	assert_output --partial "probe=0"	# it had terminals; both refused
	assert_output --partial "after-run"	# output still shows
	run cat "$T/state"
	assert_output "ldisc=0 excl=0"
}

@test "the command's streams are terminals, and /dev/tty is none of the caller's" {
	on_tty "$SBX sh -c 'for fd in 0 1 2; do [ -t \$fd ] && echo tty\$fd; done
		(exec 3</dev/tty) 2>/dev/null || echo no-dev-tty'"
	assert_success
	assert_output --partial $'tty0\r\ntty1\r\ntty2\r\nno-dev-tty'
}

@test "on a terminal, maxOutputBytes lets exactly that many bytes through, then 125 and the message" {
	limits '"maxOutputBytes": 1000'
	on_tty "$SBX sh -c 'head -c 3000 /dev/zero | tr \"\\0\" x'; echo status=\$?"
	assert_success
	assert_output --partial "sbexec: sh: stdout and stderr exceeded 1000 bytes; stopped"
	assert_output --partial "status=125"
	run bash -c 'printf %s "$1" | sed "s/sbexec: .*//" | tr -cd x | wc -c' _ "$output"
	assert_output 1000
}

@test "on stderr's terminal, with stdout a file, the cap applies to stderr" {
	limits '"maxOutputBytes": 1000'
	on_tty "$SBX sh -c 'head -c 3000 /dev/zero | tr \"\\0\" x >&2' >\"\$T/out\"; echo status=\$?"
	assert_output --partial "sbexec: sh: stderr exceeded 1000 bytes; stopped"
	assert_output --partial "status=125"
	run bash -c 'printf %s "$1" | sed "s/sbexec: .*//" | tr -cd x | wc -c' _ "$output"
	assert_output 1000
}

# watch_job PID SECS: wait up to SECS for job PID to end, saying
# JOB-STOPPED if it is ever seen stopped (and then killing it).
WATCH='watch_job() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -e /proc/$1 ] || return 0
		case $(cut -d" " -f3 /proc/$1/stat 2>/dev/null) in
		T|t) echo JOB-STOPPED; kill -KILL $1; return 1;;
		esac
		sleep 0.1
	done
	echo still-running; kill -KILL $1
}'

@test "TOSTOP on the terminal does not stop sbexec in the background: its cap message is written" {
	limits '"maxOutputBytes": 1000, "timeoutMs": 3000'
	on_tty "$WATCH; set -m; stty tostop
		$SBX sh -c 'stty tostop; head -c 2000 /dev/zero; sleep 30' >/dev/null &
		pid=\$!; watch_job \$pid 10; wait \$pid; echo status=\$?"
	refute_output --partial JOB-STOPPED
	refute_output --partial still-running
	assert_output --partial "stdout exceeded 1000 bytes; stopped"
	assert_output --partial "status=125"
}

@test "TOSTOP on the terminal does not stop sbexec in the background: the timeout fires while it relays" {
	limits '"timeoutMs": 2000'
	on_tty "$WATCH; set -m; stty tostop
		$SBX sh -c 'stty tostop; while :; do echo tick; sleep 0.2; done' &
		pid=\$!; watch_job \$pid 10; wait \$pid; echo status=\$?"
	refute_output --partial JOB-STOPPED
	refute_output --partial still-running
	assert_output --partial tick
	assert_output --partial "status=124"
}

@test "ffmpeg on a terminal through sbexec: its progress line, and q quits it cleanly" {
	policy ', "filesystem": {"allowWrite": ["."]}, "envAllowList": ["PATH", "TERM"]'
	on_tty "TERM=xterm $BIN/ffmpeg -hide_banner -re -f lavfi \
		-i testsrc=size=64x48:rate=10 -t 60 -y out.mp4; echo status=\$?" \
		-e 'frame==send:q'
	assert_success
	assert_output --regexp 'frame= *[0-9]+ .*size='
	assert_output --partial "status=0"
	run ffprobe -v error -show_entries format=duration -of csv=p=0 out.mp4
	assert_success
	assert_output --regexp '^[0-9]+\.[0-9]+$'
	awk -v d="$output" 'BEGIN { exit !(d < 30) }'	# q, not -t, ended it
}

@test "a typed Ctrl-C reaches the command as SIGINT" {
	limits '"timeoutMs": 10000'
	on_tty "$SBX sh -c 'trap \"echo got-int; exit 9\" INT; echo ready
		while :; do sleep 0.1; done'; echo status=\$?" -e 'ready=send:\x03'
	assert_output --partial got-int
	assert_output --partial "status=9"
}

@test "the window size is the caller's, and follows a SIGWINCH" {
	limits '"timeoutMs": 10000'
	on_tty "$SBX sh -c 'stty size; trap \"stty size; exit 0\" WINCH; echo ready
		while :; do sleep 0.1; done'; echo status=\$?" \
		-s 33x77 -e 'ready=size:40x100'
	assert_output --partial $'33 77\r\n'
	assert_output --partial $'40 100\r\n'
	assert_output --partial "status=0"
}

@test "the terminal's modes are restored: a run, a command's stty raw, a timeout, the cap, SIGTERM" {
	limits '"timeoutMs": 1000, "maxOutputBytes": 100'
	on_tty "g0=\$(stty -g)
		$SBX sh -c 'exit 0'; g1=\$(stty -g)
		$SBX sh -c 'stty raw -echo -isig; exit 0'; g2=\$(stty -g)
		$SBX sh -c 'sleep 30'; s3=\$?; g3=\$(stty -g)
		$SBX sh -c 'head -c 500 /dev/zero'; s4=\$?; g4=\$(stty -g)
		$SBX sh -c 'sleep 30' & p=\$!; (sleep 0.5; kill -TERM \$p) &
		wait \$p; s5=\$?; g5=\$(stty -g)
		for g in \"\$g1\" \"\$g2\" \"\$g3\" \"\$g4\" \"\$g5\"; do
			[ \"\$g\" = \"\$g0\" ] && echo same || echo changed
		done; echo statuses \$s3 \$s4 \$s5"
	assert_success
	assert_output --partial "statuses 124 125 143"
	run grep -c '^same' <<<"${output//$'\r'/}"
	assert_output 5
}

@test "SIGUSR1 and SIGUSR2 to sbexec reach the command" {
	limits '"timeoutMs": 10000'
	$SBX sh -c 'trap "echo got-usr1" USR1; trap "echo got-usr2; exit 7" USR2
		echo ready; while :; do sleep 0.1; done' >"$T/out" &
	PID=$!
	for _ in $(seq 50); do grep -q ready "$T/out" && break; sleep 0.1; done
	kill -USR1 "$PID"
	sleep 0.5
	kill -USR2 "$PID"
	status=0
	wait "$PID" || status=$?
	assert_equal "$status" 7
	run cat "$T/out"
	assert_output $'ready\ngot-usr1\ngot-usr2'
}

# ticks: the lines so far of a command that prints one every 0.1 s.
ticks() {
	wc -l <"$T/out"
}

@test "SIGTSTP to sbexec pauses the command and SIGCONT resumes it; sbexec is never stopped" {
	limits '"timeoutMs": 20000'
	$SBX sh -c 'while :; do echo tick; sleep 0.1; done' >"$T/out" &
	PID=$!
	sleep 1
	kill -TSTP "$PID"
	sleep 0.5
	a=$(ticks)
	sleep 1
	b=$(ticks)
	state=$(cut -d' ' -f3 "/proc/$PID/stat")
	kill -CONT "$PID"
	sleep 1
	c=$(ticks)
	kill -TERM "$PID"
	status=0
	wait "$PID" || status=$?
	assert_equal "$status" 143
	assert_equal "$state" S		# sbexec itself runs on
	assert_equal "$a" "$b"		# the command was paused
	(( c > b ))			# and resumed
}

@test "SIGSTOP stops sbexec alone; its timeout is enforced once it continues" {
	limits '"timeoutMs": 1000'
	$SBX sh -c 'sleep 30' &
	PID=$!
	sleep 0.3
	kill -STOP "$PID"
	sleep 2
	start=$(date +%s%N)
	kill -CONT "$PID"
	status=0
	wait "$PID" || status=$?
	assert_equal "$status" 124
	(( ($(date +%s%N) - start) / 1000000 < 1500 ))
}
