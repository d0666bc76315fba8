#!/usr/bin/env bats
# A reader that does not read (issue 29, 3): with stdout a terminal, a
# pipe or a socket nobody reads, sbexec once slept in write(2) while the
# command ran on past timeoutMs. Each shape is shown first without
# sbexec (the plain command is still blocked, alive, past the timeout),
# then through it: 124 near the timeout, the end record written, the
# caller's file status flags untouched; and a reader that is only slow
# gets every byte. Both backends (make test runs it under Landlock too),
# as root and as a user: a user cannot reopen root's terminal, which
# takes outfd.c's other way (a write under a timer).

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	test_user
}

# Everything a user's run needs, readable by the user: the policy, the
# simulated container under Landlock, a cwd of the user's that holds the
# audit.
setup() {
	common_setup
	D=$(mktemp -d /tmp/sbxreader.XXXXXX)
	chmod 755 "$D"
	mkdir "$D/w"
	chown "$CUID:$CGID" "$D/w"
	export SBEXEC_POLICY="$D/policy.json" AUDIT="$D/w/audit.jsonl"
	XDIR=	# no payload: policy() lists no execPaths, which a user must walk
	cd "$D/w"
	SBX=("$SBEXEC")
	if landlock; then
		cp "$IN_CONTAINER" "$D/in_container"
		SBX=("$D/in_container" "$SBEXEC")
	fi
	UNREAD=(python3 "$TOP/test/unread.py")
	RAW=(ffmpeg -nostdin -v error -f lavfi -i testsrc=size=160x120:rate=25)
}

teardown() {
	cd /
	rm -rf "$D"
}

limits() {
	policy ", \"limits\": {$1}"
}

# ended_near SECS: the run ended (124, not "alive") in less than SECS, the
# caller's flags unchanged, and its end record written.
ended_near() {
	assert_line --regexp "^rc=124 secs=[0-9.]+ flags=same$"
	[[ "$output" =~ secs=([0-9]+) ]]
	echo "ended at ${BASH_REMATCH[1]} s, bound $1 s"
	[ "${BASH_REMATCH[1]}" -lt "$1" ]
	assert_equal "$(audit_get end 'r["timedOut"]')" true
	assert_equal "$(audit_get end 'r["exit"]')" 124
}

# Under a timeout of 2 s and killAfterMs 1 s: generous, as the machine
# may be busy, and still far below the 30 s the run would last.
BOUND=8

@test "a terminal nobody reads: the plain command blocks past the timeout; through sbexec 124 near it, as root and as a user" {
	limits '"timeoutMs": 2000, "killAfterMs": 1000'
	run -0 "${UNREAD[@]}" pty 4 "${RAW[@]}" -f rawvideo -
	assert_line --regexp "^rc=alive "	# the stall, without sbexec
	for who in root user; do
		rm -f "$AUDIT"
		run -0 "${UNREAD[@]}" pty 30 $(setpriv_for "$who") "${SBX[@]}" \
			"${RAW[@]}" -f rawvideo -
		ended_near "$BOUND"
	done
}

@test "a pipe nobody reads: the plain command blocks past the timeout; through sbexec 124 near it, as root and as a user" {
	limits '"timeoutMs": 2000, "killAfterMs": 1000'
	run -0 "${UNREAD[@]}" pipe 4 "${RAW[@]}" -f rawvideo -
	assert_line --regexp "^rc=alive "
	for who in root user; do
		rm -f "$AUDIT"
		run -0 "${UNREAD[@]}" pipe 30 $(setpriv_for "$who") "${SBX[@]}" \
			"${RAW[@]}" -f rawvideo -
		ended_near "$BOUND"
	done
}

# A socket cannot be reopened (ENXIO): written with MSG_DONTWAIT.
@test "a socket nobody reads: the plain command blocks past the timeout; through sbexec 124 near it" {
	limits '"timeoutMs": 2000, "killAfterMs": 1000'
	run -0 "${UNREAD[@]}" socket 4 "${RAW[@]}" -f rawvideo -
	assert_line --regexp "^rc=alive "
	run -0 "${UNREAD[@]}" socket 30 "${SBX[@]}" "${RAW[@]}" -f rawvideo -
	ended_near "$BOUND"
}

# The end record and sbexec's lines after the run go to the same unread
# terminal or pipe, which the command's output has filled: they wait a
# second past the run's bound, then the end record is lost, and the exit
# status says so (125) as for any sink that cannot be written.
@test "with the audit on a stderr nobody reads, the run still ends near its timeout: 125, the end record lost" {
	AUDIT=stderr limits '"timeoutMs": 2000, "killAfterMs": 1000'
	for kind in pty pipe; do
		run -0 env ERR=same "${UNREAD[@]}" "$kind" 30 "${SBX[@]}" sh -c yes
		assert_line --regexp "^rc=125 secs=[0-9.]+ flags=same$"
		[[ "$output" =~ secs=([0-9]+) ]]
		[ "${BASH_REMATCH[1]}" -lt "$BOUND" ]
	done
}

@test "a reader slow to start gets every byte, on a terminal, a pipe and a socket, as root and as a user" {
	limits '"timeoutMs": 60000'
	for kind in pty pipe socket; do
		run -0 env READ_AFTER=2 "${UNREAD[@]}" "$kind" 60 \
			"${RAW[@]}" -frames 20 -f rawvideo -
		assert_line --index 0 --regexp "^rc=0 "
		want=${lines[1]}
		[ "$want" = "bytes=1152000 ${want#* }" ]
		for who in root user; do
			rm -f "$AUDIT"
			run -0 env READ_AFTER=2 "${UNREAD[@]}" "$kind" 60 \
				$(setpriv_for "$who") "${SBX[@]}" \
				"${RAW[@]}" -frames 20 -f rawvideo -
			assert_line --index 0 --regexp "^rc=0 secs=[0-9.]+ flags=same$"
			assert_line --index 1 "$want"
		done
	done
}

# A terminal's O_NONBLOCK is the shell's too, a pipe's every writer's:
# sbexec writes through a description of its own (outfd.c).
@test "the caller's O_NONBLOCK is its own: neither set nor cleared while sbexec runs or after" {
	limits '"timeoutMs": 2000, "killAfterMs": 1000'
	for nonblock in 0 1; do
		for kind in pty pipe; do
			run -0 env NONBLOCK=$nonblock "${UNREAD[@]}" "$kind" 30 \
				"${SBX[@]}" sh -c yes
			ended_near "$BOUND"
		done
	done
}
