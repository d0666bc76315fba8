#!/usr/bin/env bats
# The installed default is invisible (issue 35): from a fresh `make
# install` into a staging root, the farm's ffprobe gives byte for byte
# the real ffprobe's stdout and stderr, its records reach the sink that
# "audit": "auto" chose and --check names: the system log where a socket
# at /dev/log takes them (one this file listens on), else the invoking
# user's own file. Each case runs in a mount namespace of the test's own
# (helper.bash's with_dev_log) whose /dev/log leads to the test's socket
# or is absent, so that the host's syslog (or its absence) decides
# nothing; as root, as a user, and as two users in turn.

load helper

setup_file() {
	export STAGE HOMES NOROOT=
	if [ "$(id -u)" -ne 0 ]; then
		NOROOT="needs root: mount namespaces and users of the test's own"
		return 0
	fi
	STAGE=$(mktemp -d /tmp/sbxauto-stage.XXXXXX)
	chmod 755 "$STAGE"
	make -C "$TOP" -s install DESTDIR="$STAGE" PREFIX=/usr >/dev/null
	HOMES=$(mktemp -d /tmp/sbxauto-homes.XXXXXX)
	chmod 755 "$HOMES"
	for u in sbxaudit1 sbxaudit2; do
		userdel -r "$u" >/dev/null 2>&1 || true
		useradd -m -d "$HOMES/$u" -s /usr/sbin/nologin "$u"
	done
}

teardown_file() {
	[ -n "$NOROOT" ] && return 0
	for u in sbxaudit1 sbxaudit2; do
		userdel -r "$u" >/dev/null 2>&1 || true
	done
	rm -rf "$STAGE" "$HOMES" /var/log/sbexec.sbxauto
}

setup() {
	[ -z "$NOROOT" ] || skip "$NOROOT"
	common_setup
	export SBEXEC_POLICY="$STAGE/etc/sbexec/policy.json"
	sample
	# Where every user may go: the runs' directory and their outputs.
	O="$HOMES/run"
	rm -rf "$O"
	mkdir -m 755 "$O"
	cp "$W/sample.mp4" "$O/"
	chmod 644 "$O/sample.mp4"
	cd "$O"
	LOG="$T/syslog.txt"
	# Root's file is the real /var/log/sbexec's: kept aside, put back.
	if [ -e /var/log/sbexec ] && [ ! -e /var/log/sbexec.sbxauto ]; then
		mv /var/log/sbexec /var/log/sbexec.sbxauto
	fi
	rm -rf /var/log/sbexec
}

teardown() {
	[ -z "$NOROOT" ] || return 0
	[ -z "${LISTENER:-}" ] || kill "$LISTENER" 2>/dev/null || true
	rm -f "$HOMES/log.sock"
	rm -rf /var/log/sbexec
	if [ -e /var/log/sbexec.sbxauto ]; then
		mv /var/log/sbexec.sbxauto /var/log/sbexec
	fi
}

# listen: a syslog socket of the test's own that any user may reach
# ($HOMES/log.sock), writing what it receives to $LOG.
listen() {
	socat -u UNIX-RECV:"$HOMES/log.sock",perm=0666 OPEN:"$LOG",creat,append &
	LISTENER=$!
	for _ in $(seq 50); do [ -S "$HOMES/log.sock" ] && break; sleep 0.1; done
}

# probe WHO: the farm's ffprobe and the real one on the sample as WHO
# (root, or a user name), in $O, each stdout and stderr in $O/WHO/;
# both must have succeeded.
probe() {
	local who=$1 run=
	[ "$who" = root ] ||
		run="setpriv --reuid=$(id -u "$who") --regid=$(id -g "$who") --init-groups --"
	mkdir -p "$O/$who"
	chmod 777 "$O/$who"
	$run /usr/bin/ffprobe -v error -show_format -show_streams sample.mp4 \
		>"$O/$who/real.out" 2>"$O/$who/real.err"
	$run env PATH="$STAGE/usr/lib/sbexec/bin:$PATH" \
		ffprobe -v error -show_format -show_streams sample.mp4 \
		>"$O/$who/sb.out" 2>"$O/$who/sb.err"
	$run env PATH="$STAGE/usr/lib/sbexec/bin:$PATH" \
		ffprobe -v error -show_streams no-such-file.mp4 \
		>"$O/$who/sb-fail.out" 2>"$O/$who/sb-fail.err" || true
	$run /usr/bin/ffprobe -v error -show_streams no-such-file.mp4 \
		>"$O/$who/real-fail.out" 2>"$O/$who/real-fail.err" || true
	$run "$STAGE/usr/bin/sbexec" --check | grep '^audit:' >"$O/$who/check"
}

# same WHO: the farm's stdout and stderr are the real ffprobe's, byte for
# byte, for a probe and for a failing one.
same() {
	cmp "$O/$1/real.out" "$O/$1/sb.out"
	cmp "$O/$1/real.err" "$O/$1/sb.err"
	cmp "$O/$1/real-fail.err" "$O/$1/sb-fail.err"
	[ -s "$O/$1/real.out" ] && [ -s "$O/$1/real-fail.err" ]
}

@test "make install's policy says \"auto\"; the example shows it" {
	run grep -c '"audit": "auto"' "$STAGE/etc/sbexec/policy.json" "$TOP/policy.example.json"
	assert_line "$STAGE/etc/sbexec/policy.json:1"
	assert_line "$TOP/policy.example.json:1"
}

@test "auto, a syslog socket listening: records reach it, the farm's ffprobe prints what the real one prints, as root and as a user" {
	listen
	with_dev_log "$HOMES/log.sock" bash -c "$(declare -f probe); O='$O' STAGE='$STAGE'; probe root; probe sbxaudit1"
	same root
	same sbxaudit1
	# One datagram a record, each <86>sbexec[PID]: (authpriv.info); two
	# start and two end records per user: the probe and the failing one.
	sed 's/<86>sbexec\[/\n&/g' "$LOG" >"$T/records"
	run grep -c '^<86>sbexec\[[0-9]*\]: {"type":"start".*"cmd":"ffprobe".*"auditSink":"syslog"' "$T/records"
	assert_output 4
	run grep -c '^<86>sbexec\[[0-9]*\]: {"type":"end"' "$T/records"
	assert_output 4
	assert_equal "$(grep -c '"type":"start".*"uid":0,' "$T/records")" 2
	assert_equal "$(grep -c "\"type\":\"start\".*\"uid\":$(id -u sbxaudit1)," "$T/records")" 2
	run cat "$O/root/check" "$O/sbxaudit1/check"
	assert_line --index 0 "audit: auto: syslog (/dev/log accepts records)"
	assert_line --index 1 "audit: auto: syslog (/dev/log accepts records)"
	# Nothing went to the files.
	[ ! -e /var/log/sbexec/audit.jsonl ]
	[ ! -e "$HOMES/sbxaudit1/.local/state/sbexec/audit.jsonl" ]
}

@test "auto, no syslog socket: root's records in /var/log/sbexec, each user's in their own file, two users in turn; stdout and stderr the real ffprobe's" {
	with_dev_log "" bash -c "$(declare -f probe); O='$O' STAGE='$STAGE'; probe root; probe sbxaudit1; probe sbxaudit2; O='$O/again'; mkdir -m 755 \$O; cp sample.mp4 \$O/; cd \$O; probe sbxaudit1"
	local u f
	same root
	for u in sbxaudit1 sbxaudit2; do
		same "$u"
	done
	[ ! -e "$LOG" ]
	run stat -c '%a %U' /var/log/sbexec
	assert_output "750 root"
	run grep -c '"type":"start".*"auditSink":"/var/log/sbexec/audit.jsonl"' /var/log/sbexec/audit.jsonl
	assert_output 2
	for u in sbxaudit1 sbxaudit2; do
		f="$HOMES/$u/.local/state/sbexec/audit.jsonl"
		run stat -c '%a %U' "$f" "$(dirname "$f")"
		assert_line --index 0 "600 $u"
		assert_line --index 1 "700 $u"
		run grep -c "\"type\":\"start\".*\"uid\":$(id -u "$u"),.*\"auditSink\":\"$f\"" "$f"
		# sbxaudit1 ran twice, around sbxaudit2: its file took both.
		[ "$u" = sbxaudit1 ] && assert_output 4 || assert_output 2
		assert_equal "$(grep -c '"type":"end"' "$f")" "$output"
		run cat "$O/$u/check"
		assert_output "audit: auto: $f (no syslog socket at /dev/log; the invoking user's file)"
	done
}

@test "auto where no file can be had (a user with no home): stderr, as \"stderr\" says, never a loss" {
	test_user
	chmod 777 "$O"
	with_dev_log "" sh -c "setpriv --reuid=$CUID --regid=$CGID --clear-groups -- env PATH='$STAGE/usr/lib/sbexec/bin:$PATH' ffprobe -v error -show_format sample.mp4 >'$O/out' 2>'$O/err'"
	run grep -c '"type":"start".*"auditSink":"stderr"' "$O/err"
	assert_output 1
	run grep -c '"type":"end".*"exit":0' "$O/err"
	assert_output 1
	[ -s "$O/out" ]
}

@test "sbexec --link DIR where DIR does not exist says so once, and makes nothing" {
	run "$STAGE/usr/bin/sbexec" --link "$T/missing"
	assert_failure 125
	assert_output "sbexec: $T/missing: No such file or directory; make it first (install -d $T/missing)"
	[ ! -e "$T/missing" ]
}

@test "the check above can fail: with \"stderr\", the old installed default, the farm's stderr is not the real ffprobe's" {
	sed 's|"audit": "auto"|"audit": "stderr"|' "$STAGE/etc/sbexec/policy.json" >"$T/stderr.json"
	chmod 644 "$T/stderr.json"
	SBEXEC_POLICY="$T/stderr.json" with_dev_log "" bash -c "$(declare -f probe); O='$O' STAGE='$STAGE'; probe root"
	cmp "$O/root/real.out" "$O/root/sb.out"
	run cmp "$O/root/real.err" "$O/root/sb.err"
	assert_failure
	run grep -c '"type":"start"' "$O/root/sb.err"
	assert_output 1
}

@test "auto: a file chosen that then cannot take the start record stops the command (125), as any sink does" {
	mkdir -p /var/log/sbexec/audit.jsonl	# a directory where the file goes
	run with_dev_log "" env PATH="$STAGE/usr/lib/sbexec/bin:$PATH" \
		ffprobe -v error -show_format sample.mp4
	assert_failure 125
	assert_output --partial "audit sink /var/log/sbexec/audit.jsonl: "
	assert_output --partial "the command was not run"
}
