#!/usr/bin/env bats
# The escape battery: attacks a hostile argv (or a hostile process in the
# sandbox) would try, each run with the real ffmpeg, ffprobe or tool. Every
# attack is first shown to WORK without sbexec (same command, direct), then
# to FAIL through sbexec, asserting that the secret never appears, the file
# was not written, the connection was not made.
#
# argv alone gives native code in the sandbox (DESIGN 3): "attack" below
# is that code, loaded as an attacker loads it. ffmpeg writes payload.so
# from a data: URI into the writable cwd, and a second ffmpeg loads it
# with -af ladspa=file=; its constructor runs the probes of
# test/probe_syscalls.c named in ./payload.args.
#
# The secret is $SECRET (an SRT subtitle holding a random $TOKEN, so that
# demuxers probing it recognise it) in $T/secret/, which every policy here
# hides with filesystem.denyRead; the working directory $W is writable.
#
# Tests named "ESCAPE:" show a way through the sandbox found while writing
# this battery: they fail until sbexec is fixed.

load helper
bats_require_minimum_version 1.5.0

FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf

setup_file() {
	build_probes
}

setup() {
	common_setup
	sample
	PROBE="$BATS_FILE_TMPDIR/probe_syscalls"
	PIDS=()
	make_secret
	fs_policy '"allowWrite": ["."]'
}

teardown() {
	kill_pids
	rm -f "$HOST_SOCK"
}

# ------------------------------------------------------------- helpers

# make_secret: $SECRET in $T/secret, holding a fresh $TOKEN.
make_secret() {
	TOKEN="TOKEN_$RANDOM$RANDOM"
	SECRET="$T/secret/token.txt"
	mkdir -p "$T/secret"
	printf '1\n00:00:00,000 --> 00:00:01,000\n%s\n\n' "$TOKEN" >"$SECRET"
}

# fs_policy FILESYSTEM [EXTRA]: the test policy, $T/secret hidden, with
# these filesystem members and EXTRA top-level members.
fs_policy() {
	policy ", \"filesystem\": {\"denyRead\": [\"$T/secret\"], $1} ${2:-}"
}

# works_directly ARGS: the real ffmpeg with ARGS succeeds.
works_directly() {
	run ffmpeg -nostdin -v error "$@"
	assert_success
}

# fails_in_sandbox ARGS: the same through sbexec fails, without a byte
# of the token on stdout or stderr.
fails_in_sandbox() {
	run "$BIN/ffmpeg" -nostdin -v error "$@"
	assert_failure
	refute_output --partial "$TOKEN"
}

# assert_leak_blocked ARGS: ffmpeg ARGS prints the token directly, and
# not through sbexec.
assert_leak_blocked() {
	works_directly "$@"
	assert_output --partial "$TOKEN"
	fails_in_sandbox "$@"
}

# serve CMD...: CMD in the background (fd 3 closed for bats, output to
# $T/server.log); teardown kills it and its children.
serve() {
	"$@" >>"$T/server.log" 2>&1 3>&- &
	PIDS+=($!)
}

free_port() {
	python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_listening tcp PORT | unix PATH: until something listens there.
wait_listening() {
	local _
	for _ in $(seq 100); do
		case $1 in
		tcp) grep -qi "^ *[0-9]*: 0100007F:$(printf %04X "$2") 00000000:0000 0A" \
			/proc/net/tcp && return 0 ;;
		unix) awk -v p="$2" '$NF == p && $4 == "00010000" { f = 1 }
			END { exit !f }' /proc/net/unix && return 0 ;;
		esac
		sleep 0.05
	done
	fail "nothing listens on $1 $2"
}

# listen_recording tcp PORT | unix PATH: a socat listener that answers
# HELLO and appends a line to $CONNS for every connection.
listen_recording() {
	CONNS="$T/connections.log"
	local addr="TCP-LISTEN:$2,bind=127.0.0.1,reuseaddr,fork"
	[ "$1" = unix ] && addr="UNIX-LISTEN:$2,unlink-early,fork"
	serve socat "$addr" SYSTEM:"echo HELLO; echo conn >>'$CONNS'"
	wait_listening "$1" "$2"
}

# connections: how many connections the listener has recorded.
connections() {
	sleep 0.2
	if [ -f "$CONNS" ]; then wc -l <"$CONNS"; else echo 0; fi
}

# assert_attack_stopped DIRECT SANDBOX PROBE...: the attack answers
# DIRECT without sbexec and SANDBOX through it (lines NAME=RESULT).
assert_attack_stopped() {
	local direct=$1 sandbox=$2
	shift 2
	run attack ffmpeg "$@"
	assert_success
	assert_output "$direct"
	run attack "$BIN/ffmpeg" "$@"
	assert_success
	assert_output "$sandbox"
}

# probe_in_sandbox NAME...: the syscall probe through sbexec (via the
# policy's sh).
probe_in_sandbox() {
	sbx sh -c "exec '$PROBE' $*"
}

# engine_refused NAME: in a real container engine (SBEXEC_ENGINE, set by
# test/container.bats) whose own profile refuses the probe NAME without
# sbexec, the test skips: nothing is left for sbexec's filter to show
# there (the host's run of this suite shows it).
engine_refused() {
	[ -n "${SBEXEC_ENGINE:-}" ] && [ "$output" = "$1=EPERM" ] &&
		skip "$SBEXEC_ENGINE's own seccomp profile refuses $1 without sbexec"
	return 0
}

# assert_filtered NAME DIRECT: the probe NAME answers DIRECT without
# sbexec (the kernel reached the call) and EPERM through it.
assert_filtered() {
	run "$PROBE" "$1"
	assert_success
	engine_refused "$1"
	assert_output "$1=$2"
	run probe_in_sandbox "$1"
	assert_success
	assert_output "$1=EPERM"
}

# ------------------------------------------------------- reading secrets

@test "ffmpeg -f data -i SECRET copies it directly, not through sbexec" {
	assert_leak_blocked -f data -i "$SECRET" -map 0 -c copy -f data -
}

@test "drawtext=textfile=SECRET reads it directly, fails through sbexec" {
	[ -f "$FONT" ] || skip "no font at $FONT"
	works_directly -f lavfi -i color=size=64x48:d=0.1 \
		-vf "drawtext=textfile=$SECRET:fontfile=$FONT" -frames:v 1 -f null -
	fails_in_sandbox -f lavfi -i color=size=64x48:d=0.1 \
		-vf "drawtext=textfile=$SECRET:fontfile=$FONT" -frames:v 1 -f null -
	assert_output --partial "The text file '$SECRET' could not be read"
}

@test "movie= and amovie= sources read a hidden media file directly, not through sbexec" {
	cp sample.mp4 "$T/secret/clip.mp4"
	local src
	for src in "movie=$T/secret/clip.mp4" "amovie=$T/secret/clip.mp4"; do
		works_directly -f lavfi -i "$src" -t 0.1 -f null -
		fails_in_sandbox -f lavfi -i "$src" -t 0.1 -f null -
		assert_output --partial "$src"
		# bwrap hides it with a tmpfs; Landlock refuses the read.
		if landlock; then assert_output --partial "Permission denied"
		else assert_output --partial "No such file or directory"; fi
	done
}

@test "an HLS playlist whose segment is file://SECRET" {
	printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://%s\n#EXT-X-ENDLIST\n' \
		"$SECRET" >list.m3u8
	assert_leak_blocked -allowed_extensions ALL \
		-allowed_segment_extensions ALL -extension_picky 0 \
		-i list.m3u8 -map 0 -c copy -f data -
}

@test "concat -safe 0 with a list naming SECRET" {
	printf "file '%s'\n" "$SECRET" >list.txt
	assert_leak_blocked -f concat -safe 0 -i list.txt -map 0 -c copy -f srt -
}

# A rule names a path: were the parent of a denied file below allowWrite
# renamed from inside, the next run's rule would no longer match and the
# file would be readable. sbexec binds such parents onto themselves, and
# a mount point cannot be renamed.
@test "the parent of a denied file below allowWrite cannot be renamed to escape the rule" {
	mkdir conf
	cp "$SECRET" conf/token.txt
	policy ', "filesystem": {"allowWrite": ["."], "denyRead": ["./conf/token.txt"]}'
	run sh -c 'mv conf moved && cat moved/token.txt && mv moved conf'
	assert_output --partial "$TOKEN"
	fails_in_sandbox -f data -i conf/token.txt -map 0 -c copy -f data -
	run sbx sh -c 'mv conf moved'
	fails_in_sandbox -f data -i moved/token.txt -map 0 -c copy -f data -
}

# ----------------------------------------------------- writing elsewhere

@test "-dump_attachment of a ../../ filename writes outside the cwd only directly" {
	echo PAYLOAD >payload.txt
	ffmpeg -nostdin -v error -i sample.mp4 -attach payload.txt \
		-metadata:s:t filename=../../escaped.txt \
		-metadata:s:t mimetype=text/plain -c copy att.mkv
	mkdir -p a/b
	cd a/b
	works_directly -dump_attachment:t "" -i "$W/att.mkv" -f null -
	assert_equal "$(cat "$W/escaped.txt")" PAYLOAD
	rm "$W/escaped.txt"
	fails_in_sandbox -dump_attachment:t "" -i "$W/att.mkv" -f null -
	[ ! -e "$W/escaped.txt" ]
	run find "$T" -name escaped.txt
	assert_output ""
}

@test "FFREPORT=file=OUTSIDE writes a report directly, never through sbexec" {
	mkdir "$T/outside"
	local log="$T/outside/report.log"
	FFREPORT="file=$log" works_directly -i sample.mp4 -f null -
	[ -s "$log" ]
	rm "$log"
	# The default envAllowList drops FFREPORT.
	FFREPORT="file=$log" run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -f null -
	assert_success
	[ ! -e "$log" ]
	# Passed on purpose, it still cannot write outside allowWrite...
	fs_policy '"allowWrite": ["."]' ', "envAllowList": ["PATH", "FFREPORT"]'
	FFREPORT="file=$log" run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -f null -
	assert_output --partial "Failed to open report"
	[ ! -e "$log" ]
	# ...though it does reach ffmpeg: inside the cwd the report appears.
	FFREPORT="file=$W/report.log" run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -f null -
	assert_success
	[ -s "$W/report.log" ]
}

@test "-report writes into the cwd directly, not through sbexec without allowWrite" {
	works_directly -report -i sample.mp4 -f null -
	run compgen -G 'ffmpeg-*.log'
	assert_success
	rm ffmpeg-*.log
	policy
	local before
	before=$(ls -A)
	fails_in_sandbox -report -i sample.mp4 -f null -
	assert_equal "$(ls -A)" "$before"
}

@test "-y over a host file outside allowWrite overwrites it only directly" {
	mkdir "$T/outside"
	local victim="$T/outside/victim.txt"
	echo ORIGINAL >"$victim"
	works_directly -y -i sample.mp4 -c copy -f mp4 "$victim"
	[ "$(cat "$victim")" != ORIGINAL ]
	echo ORIGINAL >"$victim"
	fails_in_sandbox -y -i sample.mp4 -c copy -f mp4 "$victim"
	assert_equal "$(cat "$victim")" ORIGINAL
}

# --------------------------------------------------------------- network

@test "http and tcp to a loopback server: reachable directly, not through sbexec" {
	local http tcp
	http=$(free_port)
	serve python3 -m http.server --bind 127.0.0.1 "$http" --directory "$W"
	wait_listening tcp "$http"
	run ffprobe -v error -show_entries format=nb_streams -of csv=p=0 \
		"http://127.0.0.1:$http/sample.mp4"
	assert_success
	assert_output 2
	run "$BIN/ffprobe" -v error -show_entries format=nb_streams -of csv=p=0 \
		"http://127.0.0.1:$http/sample.mp4"
	assert_failure
	# bwrap: an empty network namespace; Landlock: no IP socket at all.
	if landlock; then assert_output --partial "Operation not permitted"
	else assert_output --partial "Connection refused"; fi
	tcp=$(free_port)
	listen_recording tcp "$tcp"
	run ffmpeg -nostdin -v error -i "tcp://127.0.0.1:$tcp" -f null -
	assert_equal "$(connections)" 1
	run "$BIN/ffmpeg" -nostdin -v error -i "tcp://127.0.0.1:$tcp" -f null -
	assert_failure
	if landlock; then assert_output --partial "Operation not permitted"
	else assert_output --partial "Connection refused"; fi
	assert_equal "$(connections)" 1
}

@test "unix: connects directly, not through sbexec; allowUnixSockets lets it, loudly" {
	listen_recording unix "$HOST_SOCK"
	run ffmpeg -nostdin -v error -i "unix:$HOST_SOCK" -f null -
	assert_equal "$(connections)" 1
	run "$BIN/ffmpeg" -nostdin -v error -i "unix:$HOST_SOCK" -f null -
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(connections)" 1
	run audit_get start 'r["loud"]'
	assert_output false
	fs_policy '"allowWrite": ["."]' ', "allowUnixSockets": true'
	run "$BIN/ffmpeg" -nostdin -v error -i "unix:$HOST_SOCK" -f null -
	assert_equal "$(connections)" 2
	run audit_get start 'r["loud"]'
	assert_output true
	run audit_get start 'r["reasons"]'
	assert_output --partial allowUnixSockets
}

# -------------------------------------------------------- seccomp rules
# Where the kernel itself would refuse inside the sandbox (no
# capabilities), the probe passes an argument the kernel rejects first
# (the DIRECT answer), so EPERM can only come from the filter.

@test "seccomp: socket(AF_UNIX) is EPERM" {
	assert_filtered unix_socket OK
}

@test "seccomp: ptrace(PTRACE_TRACEME) is EPERM" {
	assert_filtered ptrace OK
}

@test "seccomp: process_vm_readv is EPERM" {
	assert_filtered process_vm_readv OK
}

# on_pty CMD...: CMD with a new pty's end as stdin, no one's controlling
# terminal: the probe's terminal where it can make none of its own (the
# Landlock backend grants no /dev/ptmx).
on_pty() {
	python3 -c 'import os, subprocess, sys
m, s = os.openpty()
sys.exit(subprocess.call(sys.argv[1:], stdin=s))' "$@"
}

assert_filtered_tty() {
	run on_pty "$PROBE" "$1"
	assert_success
	assert_output "$1=$2"
	if landlock; then
		run on_pty "$IN_CONTAINER" "$SBEXEC" sh -c "exec '$PROBE' $1"
	else
		run on_pty "$SBEXEC" sh -c "exec '$PROBE' $1"
	fi
	assert_success
	assert_output "$1=EPERM"
}

@test "seccomp: ioctl(TIOCSTI) on the controlling pty is EPERM" {
	assert_filtered_tty tiocsti OK
}

@test "seccomp: ioctl(TIOCSTI) with high bits set in the request is EPERM" {
	assert_filtered_tty tiocsti_hibits OK
}

@test "seccomp: ioctl(TIOCLINUX) is EPERM" {
	assert_filtered_tty tioclinux ENOTTY
}

@test "unshare(CLONE_NEWUSER) fails (bwrap --disable-userns: ENOSPC; Landlock: the filter, EPERM)" {
	run "$PROBE" unshare_userns
	engine_refused unshare_userns
	assert_output unshare_userns=OK
	run probe_in_sandbox unshare_userns
	assert_success
	if landlock; then assert_output unshare_userns=EPERM
	else assert_output unshare_userns=ENOSPC; fi
}

@test "seccomp: keyctl is EPERM" {
	assert_filtered keyctl EOPNOTSUPP
}

@test "seccomp: add_key is EPERM" {
	assert_filtered add_key EFAULT
}

@test "seccomp: request_key is EPERM" {
	assert_filtered request_key EFAULT
}

@test "seccomp: bpf is EPERM" {
	assert_filtered bpf EINVAL
}

@test "seccomp: perf_event_open is EPERM" {
	assert_filtered perf_event_open EFAULT
}

@test "seccomp: userfaultfd is EPERM" {
	assert_filtered userfaultfd EINVAL
}

@test "seccomp: mount is EPERM" {
	assert_filtered mount EFAULT
}

@test "seccomp: umount2 is EPERM" {
	assert_filtered umount2 EINVAL
}

@test "seccomp: an i386 syscall (int \$0x80, getpid) kills the process" {
	run "$PROBE" i386
	# Without IA32 emulation the kernel itself kills the probe: the
	# attack does not exist there.
	[ "$status" -eq 0 ] ||
		skip "the kernel has no IA32 emulation (int \$0x80 killed the probe itself: $status)"
	assert_output i386=OK
	run -159 probe_in_sandbox i386
	refute_output --partial i386=
}

@test "seccomp: an x32 syscall kills the process (the kernel has no x32: ENOSYS)" {
	run "$PROBE" x32
	assert_output x32=ENOSYS
	run -159 probe_in_sandbox x32
	refute_output --partial x32=
}

@test "seccomp: socket() with AF_UNIX in the low 32 bits of a 64-bit domain is EPERM" {
	listen_recording unix "$HOST_SOCK"
	run "$PROBE" -c "$HOST_SOCK" unix_socket_hibits
	assert_output "HELLO"$'\n'"unix_socket_hibits=OK"
	assert_equal "$(connections)" 1
	run probe_in_sandbox -c "$HOST_SOCK" unix_socket_hibits
	assert_output unix_socket_hibits=EPERM
	assert_equal "$(connections)" 1
}

@test "seccomp: io_uring cannot make an AF_UNIX socket without socket()" {
	listen_recording unix "$HOST_SOCK"
	run "$PROBE" -c "$HOST_SOCK" io_uring_socket
	assert_output "HELLO"$'\n'"io_uring_socket=OK"
	assert_equal "$(connections)" 1
	run probe_in_sandbox -c "$HOST_SOCK" io_uring_socket
	refute_output --partial HELLO
	refute_output io_uring_socket=OK
	assert_equal "$(connections)" 1
}

# Hostile argv alone: ffmpeg writes a library from a data: URI into the
# writable cwd, a second ffmpeg loads it as a LADSPA plugin, and its code
# reaches a host Unix socket (think /run/docker.sock) past the filter.
@test "argv alone (data: URI + ladspa=file=) reaches a host Unix socket directly, not through sbexec" {
	listen_recording unix "$HOST_SOCK"
	assert_attack_stopped "HELLO"$'\n'"unix_socket_hibits=OK" \
		unix_socket_hibits=EPERM -c "$HOST_SOCK" unix_socket_hibits
	assert_equal "$(connections)" 1
}

# ------------------------------------------------- protected host files

@test ".git/hooks and .bashrc stay read-only in a writable cwd; no stray files" {
	mkdir -p .git/hooks
	echo 'echo good' >.bashrc
	local before
	before=$(ls -A)
	if landlock; then
		# Landlock cannot carve them out of the writable cwd: refused.
		run -125 sbx sh -c 'echo evil >.git/hooks/pre-commit'
		assert_output --partial "cannot keep $W/.bashrc (protected name) out of the writable tree $W"
		[ ! -e .git/hooks/pre-commit ]
		return
	fi
	run sbx sh -c 'echo evil >.git/hooks/pre-commit'
	assert_failure
	assert_output --partial "Read-only file system"
	[ ! -e .git/hooks/pre-commit ]
	run sbx sh -c 'echo evil >>.bashrc; rm -f .bashrc; mv .bashrc x'
	assert_failure
	assert_equal "$(cat .bashrc)" 'echo good'
	assert_equal "$(ls -A)" "$before"
	run sbx sh -c 'echo ok >normal.txt'
	assert_success
	assert_equal "$(cat normal.txt)" ok
}

# A dotfile manager (stow, chezmoi symlink mode) makes .bashrc a symlink.
# A mount cannot be put on a link, so the link itself stays replaceable,
# as an absent protected name is creatable; its target is kept read-only,
# the run goes on, and the start record names the link.
@test "a protected name that is a symlink (.bashrc -> dotfiles/bashrc): its target stays read-only, the run goes on, the audit says so" {
	mkdir dotfiles
	echo 'echo good' >dotfiles/bashrc
	ln -s dotfiles/bashrc .bashrc
	run sh -c 'echo evil >>.bashrc' # what the sandbox tries
	assert_success
	echo 'echo good' >dotfiles/bashrc
	if landlock; then
		# The target is in the writable cwd: Landlock cannot keep it.
		run -125 sbx sh -c 'echo evil >>.bashrc'
		assert_output --partial "cannot keep $W/dotfiles/bashrc (protected name)"
		assert_equal "$(cat dotfiles/bashrc)" 'echo good'
		return
	fi
	run sbx sh -c 'echo evil >>.bashrc'
	assert_failure 2
	assert_output --partial "Read-only file system"
	assert_equal "$(cat dotfiles/bashrc)" 'echo good'
	run audit_get start 'r["masked"]'
	assert_output "[\"$W/.bashrc\"]"
	run sbx -n sh -c true
	assert_line "masked: $W/.bashrc (a link: its target is read-only, the link replaceable)"
}

# One hostile run leaves a protected name as a link; every later run
# used to stop with 125 until someone removed it.
@test "a link one run leaves at a protected name (.profile -> /etc/hostname) does not stop later runs" {
	run sbx sh -c 'ln -s /etc/hostname .profile'
	assert_success
	[ -L .profile ]
	run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -c copy out.mp4
	assert_success
	[ -s out.mp4 ]
	run audit_get start 'r["masked"]'
	assert_output "[\"$W/.profile\"]"
	run "$BIN/ffprobe" -v error -show_entries format=nb_streams -of csv=p=0 out.mp4
	assert_success
	assert_output 2
}

# The same for a rule's own path: with allowWrite "." and denyRead
# "./.env" (no .env yet), one run left ".env -> /etc/hostname" and every
# later run of every command stopped with 125. Such a name held nothing
# to hide (a real file there is a mount point the command cannot
# replace): a deny rule stays on the link's target, an allowRead is left
# out, and the start record lists the links; the command cannot steer a
# deny rule with one either (a link to the working directory does not
# hide it: the rule is left out, and stderr says so).
@test "a link one run leaves at a rule's path (denyRead, denyWrite, allowRead) does not stop later runs" {
	local fs='"allowWrite": ["."], "denyRead": ["./.env"],
	  "denyWrite": ["./.ro"], "allowRead": ["./.rd"]' want
	want="[\"$W/.env\", \"$W/.rd\", \"$W/.ro\"]"
	# Landlock refuses a rule inside a writable tree: the allowRead alone.
	landlock && fs='"allowWrite": ["."], "allowRead": ["./.rd"]' &&
		want="[\"$W/.rd\"]"
	run -0 sbx sh -c 'ln -s /etc/hostname .ro; ln -s . .rd'
	ln -s /etc/hostname .env
	policy ", \"filesystem\": {$fs}"
	run -0 "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -c copy out.mp4
	[ -s out.mp4 ]
	run audit_get start 'sorted(r["masked"])'
	assert_output "$want"
	# Pointed at the working directory, the deny rule does not hide it.
	ln -sfn . .env
	run -0 sbx sh -c 'cat sample.mp4 >/dev/null && echo ran'
	assert_line ran
	landlock ||
		assert_line "sbexec: sh: filesystem.denyRead \"./.env\": $W/.env passes through a symbolic link in a writable place and leads to the working directory, which it would hide: left out of this run; name the real path"
	assert_line "sbexec: sh: filesystem.allowRead \"./.rd\": $W/.rd passes through a symbolic link in a writable place, which an earlier run could have pointed anywhere: left out of this run; name the real path"
}

# ----------------------------------------------- invocation and policy

@test "a symlink named bash pointing at sbexec is denied (126) and runs nothing" {
	ln -s "$SBEXEC" "$BIN/bash"
	run -126 "$BIN/bash" -c 'touch pwned'
	assert_output --partial "bash: not a command of the policy"
	[ ! -e pwned ]
	run audit_get deny 'r["cmd"]'
	assert_output '"bash"'
}

@test "a world-writable policy from \$SBEXEC_POLICY is refused (125) and nothing runs" {
	chmod 666 "$SBEXEC_POLICY"
	run -125 sbx sh -c 'touch ran'
	assert_output --partial "writable by group or others; refused"
	[ ! -e ran ]
	[ ! -e "$AUDIT" ]
}

@test "an audit path that is a symlink is refused (125), its target unchanged" {
	echo ORIGINAL >"$T/elsewhere.txt"
	ln -s "$T/elsewhere.txt" "$T/link.jsonl"
	AUDIT="$T/link.jsonl"
	fs_policy '"allowWrite": ["."]'
	run -125 sbx sh -c 'touch ran'
	assert_output --partial "audit sink $T/link.jsonl"
	[ ! -e ran ]
	assert_equal "$(cat "$T/elsewhere.txt")" ORIGINAL
}

# A policy the command could rewrite is no policy: refused, before any
# command runs. The audit file in a writable place is hidden and cannot
# be rewritten, moved or removed.
@test "a policy inside its own allowWrite is refused (125); an audit file there cannot be touched" {
	cp "$SBEXEC_POLICY" "$W/policy.json"
	run -125 sbx -p "$W/policy.json" sh -c 'touch ran'
	assert_output --partial "the policy $W/policy.json lies inside its own filesystem.allowWrite"
	[ ! -e ran ]
	AUDIT="$W/audit.jsonl"
	fs_policy '"allowWrite": ["."]'
	if landlock; then
		# Landlock cannot hide it inside the writable cwd: refused.
		run -125 sbx sh -c 'touch ran'
		assert_output --partial "cannot keep $W/audit.jsonl (the audit file)"
		[ ! -e ran ]
		return
	fi
	run sbx sh -c true
	assert_success
	local attack
	for attack in ': >audit.jsonl' 'rm -f audit.jsonl' 'mv audit.jsonl a' \
	    'echo x >a && mv a audit.jsonl'; do
		run sbx sh -c "$attack"
		assert_failure
		[ -f audit.jsonl ]
	done
	# The audit file only grew, by one JSON record per line.
	run python3 -c 'import json, sys
print(sum(json.loads(l)["type"] == "start" for l in open(sys.argv[1])))' audit.jsonl
	assert_output 5
}

# Were the directory of the policy below allowWrite renamed, a new policy
# could take its place (owned by the invoking user, mode 644: accepted)
# and bypass ffmpeg. Such a policy is refused outright.
@test "a policy in a subdirectory of its allowWrite is refused, so it cannot be replaced by renaming the directory" {
	mkdir conf
	mv "$SBEXEC_POLICY" conf/policy.json
	export SBEXEC_POLICY="$W/conf/policy.json"
	run -125 sbx -n ffmpeg
	assert_output --partial "lies inside its own filesystem.allowWrite"
	run -125 sbx sh -c 'mv conf old'
	[ -d conf ]
	[ ! -e old ]
}

# A symlink on the way to a rule's path, inside a writable place, can be
# pointed elsewhere by one run to move the rule off its target for the
# next. Refusing such a policy let one run that made the link stop every
# later one (issue 20): the run goes on, the rule follows the link as it
# is now, the start record lists it, and --check says to name the real
# path.
@test "a rule through a symlink inside allowWrite: the run goes on, the link is listed in masked, --check warns" {
	mkdir real
	cp "$SECRET" real/token.txt
	ln -s real link
	policy ', "filesystem": {"allowWrite": ["."], "denyRead": ["./link/token.txt"]}'
	run sbx --check
	assert_output --partial "warning: filesystem.denyRead: $W/link/token.txt passes through a symbolic link inside a writable path"
	landlock && return 0	# a hidden entry in a writable tree: refused
	run -0 sbx sh -c 'cat link/token.txt; ln -sfn /nonexistent link'
	refute_output --partial "$TOKEN"
	run audit_get start 'r["masked"]'
	assert_output "[\"$W/link/token.txt\"]"
}

# ------------------------------------------- native code in the sandbox
# The outside review's escapes, each run as code loaded from argv alone
# (attack above), first without sbexec, then through it.

# One run creates .git (absent when it started, so not protected in it)
# and swaps it with a link to the denied directory, again and again;
# ordinary runs meanwhile read .git/token.txt. Without sbexec about one
# run in two prints the secret; through it, before the checks of
# verify.c, about one in fifteen did (bwrap resolves --bind-fd to a path
# and mounts that path later). Now the secret never shows: such runs
# stop with 125 before the command starts.
@test "escape 1: .git swapped with a link to a denied directory while other runs plan never shows the secret" {
	local i seen=0 ran=0
	attack ffmpeg flip:4 3>&- &
	PIDS+=($!)
	for i in $(seq 200); do
		run ffmpeg -nostdin -v error -f data -i .git/token.txt -map 0 \
			-c copy -f data -
		[[ $output == *"$TOKEN"* ]] && { seen=1; break; }
	done
	assert_equal "$seen" 1
	while kill -0 "${PIDS[-1]}" 2>/dev/null; do sleep 0.1; done
	rm -rf .git lnk
	attack "$BIN/ffmpeg" flip:10 3>&- &
	PIDS+=($!)
	for i in $(seq 100); do [ -e .git ] && break; sleep 0.05; done
	[ -e .git ]
	for i in $(seq 80); do
		run "$BIN/ffmpeg" -nostdin -v error -f data -i .git/token.txt \
			-map 0 -c copy -f data -
		refute_output --partial "$TOKEN"
		ran=$((ran + 1))
		kill -0 "${PIDS[-1]}" 2>/dev/null || break
	done
	[ "$ran" -ge 20 ]
	while kill -0 "${PIDS[-1]}" 2>/dev/null; do sleep 0.1; done
}

# listen_dgram PATH: a datagram socket at PATH that appends what it
# receives to $CONNS.
listen_dgram() {
	CONNS="$T/connections.log"
	serve socat -u "UNIX-RECV:$1,unlink-early" "OPEN:$CONNS,creat,append"
	local _
	for _ in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.05; done
	fail "no datagram socket at $1"
}

@test "escape 2: socketpair(AF_UNIX, SOCK_DGRAM) sends to a host socket directly, not through sbexec" {
	listen_dgram "$HOST_SOCK"
	assert_attack_stopped unix_dgram=OK unix_dgram=EPERM \
		-c "$HOST_SOCK" unix_dgram
	assert_equal "$(connections)" 1
	fs_policy '"allowWrite": ["."]' ', "allowUnixSockets": true'
	run attack "$BIN/ffmpeg" -c "$HOST_SOCK" unix_dgram
	assert_output unix_dgram=OK
	assert_equal "$(connections)" 2
}

# When root runs sbexec, uid 0 in the sandbox owns what it writes: a
# setuid file left in the cwd is a root shell for any local user.
@test "escape 3: no file the command writes is setuid, setgid, capable or world-opened" {
	local probes=(setuid_chmod setuid_fchmod setuid_fchmodat2 setuid_open
		setuid_openat2 setuid_mknod setgid_mkdir setxattr_acl
		setxattr_caps chmod_world) p
	local f2=OK caps=OK
	run attack ffmpeg "${probes[@]}"
	assert_success
	# fchmodat2 came in Linux 6.6: before, the kernel itself answers
	# ENOSYS, without sbexec and through it (so does Docker's profile,
	# which predates it). security.capability needs CAP_SETFCAP, which a
	# user, or root with --cap-drop ALL, lacks: EPERM without sbexec.
	[[ $output != *setuid_fchmodat2=ENOSYS* ]] || f2=ENOSYS
	if [[ $output == *setxattr_caps=EPERM* ]]; then
		[ "$(id -u)" -ne 0 ] || [ -n "${SBEXEC_ENGINE:-}" ] ||
			fail "root without sbexec cannot set security.capability"
		caps=EPERM
	fi
	for p in "${probes[@]}"; do
		[ "$p" = setuid_fchmodat2 ] && continue
		[ "$p" = setxattr_caps ] && continue
		assert_line "$p=OK"
	done
	assert_line "setuid_fchmodat2=$f2"
	assert_line "setxattr_caps=$caps"
	run find . -perm -4000
	assert_line ./suid_chmod
	assert_line ./suid_open
	rm -rf suid_* sgid_* acl_file caps_file world
	run attack "$BIN/ffmpeg" "${probes[@]}"
	assert_success
	for p in "${probes[@]}"; do
		[ "$p" = setuid_openat2 ] && continue
		[ "$p" = setuid_fchmodat2 ] && [ $f2 = ENOSYS ] && continue
		assert_line "$p=EPERM"
	done
	assert_line setuid_openat2=ENOSYS
	[ $f2 = OK ] ||
		assert_line --regexp '^setuid_fchmodat2=(EPERM|ENOSYS)$'
	run find . -perm /6002 -o -perm /o+w -type d
	assert_output ""
	run python3 -c 'import os, sys
print([os.listxattr(f) for f in sys.argv[1:]])' acl_file caps_file
	assert_output "[[], []]"
}

@test "escape 4: socket families are an allow-list: only AF_INET and AF_INET6 (AF_UNIX with allowUnixSockets)" {
	# Landlock: no network namespace, so no IP family under "none".
	local inet=2,10
	landlock && inet=
	assert_attack_stopped \
		"families=$(seq -s, 0 63)" "families=${inet:-none}" families
	fs_policy '"allowWrite": ["."]' ', "allowUnixSockets": true'
	run attack "$BIN/ffmpeg" families
	assert_output "families=1${inet:+,$inet}"
}

@test "escape 4: AF_VSOCK (the hypervisor, whatever the namespace) is refused" {
	run "$PROBE" vsock
	[ "$output" = vsock=OK ] ||
		skip "the kernel has no AF_VSOCK here ($output)"
	run attack "$BIN/ffmpeg" vsock
	assert_output vsock=EPERM
}

@test "weakness 6: a hidden directory and /dev hold no RAM; privateTmp is bounded by limits.tmpBytes" {
	local shm=/dev/shm/sbexec-fill-$$
	run attack ffmpeg "fill:$shm" "fill:$T/secret/fill"
	assert_output "fill=OK"$'\n'"fill=OK"
	rm -f "$shm" "$T/secret/fill"
	run attack "$BIN/ffmpeg" "fill:$shm" "fill:$T/secret/fill"
	# bwrap: read-only tmpfs mounts; Landlock: not writable at all.
	local no=EROFS
	landlock && no=EACCES
	assert_output "fill=$no"$'\n'"fill=$no"
	[ ! -e "$shm" ]
	[ ! -e "$T/secret/fill" ]
	# privateTmp hides the payload's tree under /tmp: one elsewhere.
	XDIR=$(mktemp -d /var/tmp/sbexec-x.XXXXXX)
	cp "$BATS_FILE_TMPDIR/payload.so" "$XDIR/"
	chmod 755 "$XDIR"
	fs_policy '"allowWrite": ["."], "privateTmp": true' \
		', "limits": {"tmpBytes": 1048576}'
	run attack "$BIN/ffmpeg" fill:/tmp/fill
	rm -rf "$XDIR"
	if landlock; then assert_output fill=EACCES
	else assert_output fill=ENOSPC; fi
}

@test "weakness 7: the audit file, every run's argv, is readable directly, not through sbexec" {
	run sbx sh -c true
	run attack ffmpeg "read:$AUDIT"
	assert_output --partial '"type":"start"'
	run attack "$BIN/ffmpeg" "read:$AUDIT"
	refute_output --partial '"type"'
	assert_output read=EACCES
}
