#!/usr/bin/env bats
# The Landlock backend (DESIGN 9), run where user namespaces are refused:
# every test runs sbexec inside test/in_container.c, a seccomp filter
# modelled on Docker's default profile (no unshare, setns, mount or
# namespace flags to clone). There bare bwrap fails as it does in Docker;
# "sandbox": "landlock" and "auto" run. Each claim is shown working
# without sbexec first, with native code loaded from argv alone (attack,
# helper.bash) where the claim is about what code can do. What Landlock
# cannot promise is a tested difference, named in the test.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	build_probes
	build_in_container "$BATS_FILE_TMPDIR/in_container"
}

setup() {
	[ "$(landlock_abi)" -ge 1 ] ||
		skip "the kernel has no Landlock"
	common_setup
	sample
	IN="$BATS_FILE_TMPDIR/in_container"
	PROBE="$BATS_FILE_TMPDIR/probe_syscalls"
	PIDS=()
	TOKEN="TOKEN_$RANDOM$RANDOM"
	SECRET="$T/secret/token.txt"
	mkdir -p "$T/secret" "$W/out"
	printf '1\n00:00:00,000 --> 00:00:01,000\n%s\n\n' "$TOKEN" >"$SECRET"
	ll_policy
}

teardown() {
	local pid
	for pid in "${PIDS[@]}"; do
		pkill -KILL -P "$pid" 2>/dev/null || true
		kill -KILL "$pid" 2>/dev/null || true
	done
}

# ll_policy [MEMBERS] [FILESYSTEM]: the test policy under Landlock
# ($BACKEND, else "landlock"), with FILESYSTEM (default: $T/secret
# hidden, $W/out writable) and MEMBERS (JSON, starting with a comma).
ll_policy() {
	local fs=${2:-"\"denyRead\": [\"$T/secret\"], \"allowWrite\": [\"$W/out\"]"}
	policy ", \"sandbox\": \"${BACKEND:-landlock}\",
	  \"filesystem\": {$fs} ${1:-}"
}

# cffmpeg, cffprobe, csbx ARGS: through sbexec, inside the container.
cffmpeg() { "$IN" "$BIN/ffmpeg" "$@"; }
cffprobe() { "$IN" "$BIN/ffprobe" "$@"; }
csbx() { "$IN" "$SBEXEC" "$@"; }

# ------------------------------------------------- choosing the backend

@test "in the simulated container bare bwrap cannot set up, as in Docker" {
	run bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev true
	assert_success
	run "$IN" bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev true
	assert_failure
	assert_output --partial "create new namespace"
}

@test "sandbox bwrap in the container refuses with 125, and the hint names sandbox auto" {
	BACKEND=bwrap ll_policy
	run -125 cffprobe -v error sample.mp4
	assert_output --partial 'set "sandbox": "auto"'
}

@test "auto in the container runs ffprobe and ffmpeg through the symlinks under Landlock, loudly" {
	BACKEND=auto ll_policy
	run cffprobe -v error -show_entries format=nb_streams -of csv=p=0 sample.mp4
	assert_success
	assert_output 2
	run audit_get start 'r["backend"]'
	assert_output '"landlock"'
	run audit_get start 'r["loud"]'
	assert_output true
	run audit_get start 'r["reasons"]'
	assert_output --partial "auto fell back to Landlock: bwrap cannot set up"
	run cffmpeg -nostdin -v error -i sample.mp4 -c copy out/copy.mp4
	assert_success
	[ -s out/copy.mp4 ]
}

@test "auto outside the container picks bwrap; -n says which backend" {
	BACKEND=auto ll_policy
	run sbx -n ffprobe sample.mp4
	assert_line "backend: bwrap"
	run csbx -n ffprobe sample.mp4
	assert_line --partial "backend: landlock; sandbox: auto fell back to Landlock"
}

@test "landlock where the kernel has no Landlock is refused with 125, naming why" {
	run -125 "$IN" -L "$BIN/ffprobe" sample.mp4
	assert_output "sbexec: the kernel has no Landlock (not built in, or not in its lsm= list); the Landlock backend cannot run here"
}

# ---------------------------------------------------------- filesystem

@test "landlock: a hidden file is read directly, not through sbexec" {
	run ffmpeg -nostdin -v error -f data -i "$SECRET" -map 0 -c copy -f data -
	assert_output --partial "$TOKEN"
	run cffmpeg -nostdin -v error -f data -i "$SECRET" -map 0 -c copy -f data -
	assert_failure
	refute_output --partial "$TOKEN"
	assert_output --partial "Permission denied"
}

# A difference: Landlock cannot hide a name, only refuse its content. A
# directory on the way to a hidden one is granted listing, which Landlock
# applies beneath it too.
@test "landlock (difference): a hidden directory's names can be listed, not its contents read" {
	run "$IN" "$SBEXEC" sh -c "ls '$T/secret'; cat '$SECRET'"
	assert_line token.txt
	assert_line --partial "Permission denied"
	refute_output --partial "$TOKEN"
}

# big_dir DIR N: N files f1..fN, and a file "secret" holding $TOKEN.
big_dir() {
	mkdir -p "$1"
	(cd "$1" && seq 1 "$2" | sed 's/^/f/' | xargs touch &&
		printf '%s\n' "$TOKEN" >secret && echo F2 >f2)
}

# Issue 32: a hidden entry's siblings are each a rule of every call, up
# to LANDLOCK_SIBLINGS_MAX (1000); past it only what the call names is
# granted there, so the ruleset of a directory of 20,000 entries is that
# of one of 1,500, not 20,000 rules. Without sbexec every sibling reads;
# through it a named one does, an unnamed one beside it is refused (it is
# in a small directory), and the hidden entry never.
@test "landlock: past 1000 entries a hidden entry's directory grants only what the call names, in a bounded ruleset" {
	big_dir "$W/small" 20
	big_dir "$W/big" 1500
	big_dir "$W/huge" 20000
	ll_policy "" "\"denyRead\": [\"$W/small/secret\", \"$W/big/secret\",
	  \"$W/huge/secret\"], \"allowWrite\": [\"$W/out\"]"
	run sh -c 'cat big/f2 big/secret'
	assert_output "F2
$TOKEN"
	run csbx sh -c 'cat "$1"; cat small/f2; cat big/f2; cat big/secret' \
		sh big/f1
	assert_failure
	assert_output --partial "big/f2: Permission denied"
	assert_output --partial "big/secret: Permission denied"
	assert_line F2
	refute_output --partial "$TOKEN"
	run csbx sh -c 'cat "$1"' sh "$W/big/f2"
	assert_success
	assert_output F2
	run audit_get start 'sorted(r["landlockNarrowed"])'
	assert_output "[\"$W/big\", \"$W/huge\"]"
	run audit_get start 'r["landlockRules"]'
	local few=$output
	csbx sh -c 'cat "$1" "$2" "$3"' sh "$W/big/f2" huge/f2 "$W/huge/f3"
	run audit_get start 'r["landlockRules"] - '"$few"
	assert_output 2
	[ "$few" -lt 1000 ]
}

@test "landlock: a directory up to 1000 entries grants every entry but the hidden one" {
	big_dir "$W/dir" 999
	ll_policy "" "\"denyRead\": [\"$W/dir/secret\"]"
	run csbx sh -c 'cat dir/f2 dir/f999; cat dir/secret'
	assert_failure
	assert_line F2
	assert_output --partial "dir/secret: Permission denied"
	refute_output --partial "$TOKEN"
	run audit_get start 'r["landlockNarrowed"]'
	assert_output "[]"
	run audit_get start 'r["landlockRules"] > 1000'
	assert_output true
}

@test "--check says which hidden entries' directories cost a call under Landlock, and which are narrowed" {
	big_dir "$W/mid" 300
	big_dir "$W/big" 1001
	big_dir "$W/few" 3
	ll_policy "" "\"denyRead\": [\"$W/mid/secret\", \"$W/big/secret\",
	  \"$W/few/secret\"]"
	run "$SBEXEC" --check
	assert_success
	assert_line "warning: landlock: $W/mid/secret is hidden in $W/mid, which holds 301 entries: under the Landlock backend each is a rule of every call; hide something in a smaller directory if calls must be quick"
	assert_line --partial "warning: landlock: $W/big/secret is hidden in $W/big, which holds more than 1000 entries: under the Landlock backend a call grants there only the entries its command, arguments and working directory name"
	refute_output --partial "$W/few,"
	# bwrap's mounts cost the same whatever a directory holds: no word.
	BACKEND=bwrap ll_policy "" "\"denyRead\": [\"$W/mid/secret\", \"$W/big/secret\"]"
	run "$SBEXEC" --check
	assert_success
	refute_output --partial "warning: landlock:"
}

@test "landlock: ffmpeg writes into allowWrite, not over a file outside it" {
	echo ORIGINAL >victim.txt
	run ffmpeg -nostdin -v error -y -i sample.mp4 -c copy -f mp4 victim.txt
	assert_success
	echo ORIGINAL >victim.txt
	run cffmpeg -nostdin -v error -y -i sample.mp4 -c copy -f mp4 victim.txt
	assert_failure
	assert_equal "$(cat victim.txt)" ORIGINAL
	run cffmpeg -nostdin -v error -y -i sample.mp4 -c copy out/ok.mp4
	assert_success
	[ -s out/ok.mp4 ]
}

@test "landlock: a writable tree holding a protected name is refused (125), naming it" {
	mkdir .git
	ll_policy "" '"allowWrite": ["."]'
	run -125 cffprobe sample.mp4
	assert_output --partial "cannot keep $W/.git (protected name) out of the writable tree $W"
	assert_output --partial "dedicated output directory"
}

@test "landlock: a hidden entry inside a writable tree is refused (125)" {
	ll_policy "" '"allowWrite": ["."], "denyRead": ["./out"]'
	run -125 cffprobe sample.mp4
	assert_output --partial "cannot keep $W/out (filesystem.denyRead"
}

@test "landlock: another process's /proc/PID is read directly, not through sbexec" {
	sleep 30 3>&- &
	PIDS+=($!)
	cd out
	run attack ffmpeg "read:/proc/$!/cmdline"
	assert_success
	assert_output --partial sleep
	run attack cffmpeg "read:/proc/$!/cmdline" read:/proc/self/status
	assert_line read=EACCES
	refute_output --partial sleep
	assert_line --regexp '^Name:.ffmpeg$'
	assert_line read=OK
}

# /proc/self/net is the network namespace's whole view, every socket of
# the host; mountinfo every mount. Landlock grants /proc/PID/status of
# the command's own, not the rest of it (landlock.c).
@test "landlock: the host's sockets and mounts in /proc/self are read directly, not through sbexec" {
	local port hex
	python3 -c 'import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
print(s.getsockname()[1], flush=True)
time.sleep(60)' >"$T/port" 3>&- &
	PIDS+=($!)
	for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
	port=$(cat "$T/port")
	hex=$(printf '0100007F:%04X' "$port")
	cd out
	run attack ffmpeg read:/proc/self/net/tcp read:/proc/self/mountinfo
	assert_success
	assert_output --partial "$hex"
	assert_output --partial ' - proc '
	run attack cffmpeg read:/proc/self/net/tcp read:/proc/self/mountinfo \
		read:/proc/net/tcp
	assert_output "$(printf 'read=EACCES\n%.0s' 1 2 3)"
}

# ------------------------------------------------------ code inside

@test "landlock: network none: no socket family at all; host: AF_INET and AF_INET6 only" {
	cd out
	run attack ffmpeg families
	assert_output "families=$(seq -s, 0 63)"
	run attack cffmpeg families
	assert_output families=none
	ll_policy ', "network": "host"'
	run attack cffmpeg families
	assert_output families=2,10
	ll_policy ', "allowUnixSockets": true'
	run attack cffmpeg families
	assert_output families=1
}

@test "landlock: a loopback TCP server is reached directly, not through sbexec" {
	local port
	port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server --bind 127.0.0.1 "$port" --directory "$W" \
		>/dev/null 2>&1 3>&- &
	PIDS+=($!)
	local _
	for _ in $(seq 100); do
		ffprobe -v quiet "http://127.0.0.1:$port/sample.mp4" && break
		sleep 0.05
	done
	run ffprobe -v error -show_entries format=nb_streams -of csv=p=0 \
		"http://127.0.0.1:$port/sample.mp4"
	assert_output 2
	run cffprobe -v error "http://127.0.0.1:$port/sample.mp4"
	assert_failure
	refute_output 2
}

@test "landlock: socketpair, setuid bits and extended attributes fail as under bwrap" {
	local probes=(unix_dgram setuid_chmod setuid_open setuid_mknod
		setxattr_acl chmod_world) p
	cd out
	run attack ffmpeg "${probes[@]}"
	for p in "${probes[@]}"; do assert_line "$p=OK"; done
	rm -rf suid_* acl_file world
	run attack cffmpeg "${probes[@]}"
	for p in "${probes[@]}"; do assert_line "$p=EPERM"; done
	run find . -perm /6000
	assert_output ""
}

@test "landlock: the command cannot signal a process outside its own tree" {
	sleep 30 3>&- &
	PIDS+=($!)
	run sbx sh -c "kill -0 $!"
	assert_failure
	run kill -0 "$!"
	assert_success
	run csbx sh -c "kill -0 $! && echo reached"
	refute_output --partial reached
	assert_output --partial "not permitted"
}

# ------------------------------------------------------- process tree

@test "landlock: a process the command double-forks into a new session does not outlive the run" {
	run csbx sh -c 'setsid sh -c "sleep 30 & echo \$! >out/pid" & sleep 0.3'
	assert_success
	local pid
	pid=$(cat out/pid)
	[ -n "$pid" ]
	sleep 0.2
	run kill -0 "$pid"
	assert_failure
}

@test "landlock: killing sbexec with SIGKILL ends every process the command started" {
	"$IN" "$SBEXEC" sh -c 'setsid sh -c "sleep 30 & echo \$! >out/pid; wait" & wait' 3>&- &
	local sb=$! pid _
	for _ in $(seq 100); do [ -s out/pid ] && break; sleep 0.05; done
	pid=$(cat out/pid)
	kill -0 "$pid"
	kill -KILL "$sb"
	for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	run kill -0 "$pid"
	assert_failure
}

@test "landlock: the timeout stops the command and its tree with 124" {
	ll_policy ', "limits": {"timeoutMs": 1000, "killAfterMs": 300}'
	run -124 csbx sh -c 'trap "" TERM; sleep 30 & echo $! >out/pid; wait'
	run kill -0 "$(cat out/pid)"
	assert_failure
	run audit_get end 'r["timedOut"]'
	assert_output true
}

@test "landlock: a guard stopped from outside after the command started is not reported as a setup failure" {
	local rc=0
	csbx sh -c 'echo yes >out/ran.txt; exec sleep 30.25' 2>"$T/err" &
	PIDS+=($!)
	for _ in $(seq 100); do [ -e out/ran.txt ] && break; sleep 0.1; done
	[ -e out/ran.txt ]
	# The guard: sbexec's child, the sleeping command's parent.
	kill -TERM "$(ps -o ppid= -p "$(pgrep -f '^sleep 30.25$' | head -n 1)")"
	wait "${PIDS[0]}" || rc=$?
	assert_equal "$rc" 125
	run cat "$T/err"
	assert_output --partial "the sandbox ended without the command's status, after the command had started"
	refute_output --partial "could not be set up"
}

@test "landlock: the command's exit status and signal come through unchanged" {
	run -7 csbx sh -c 'exit 7'
	if [ "$(landlock_abi)" -lt 6 ]; then
		# Below ABI 6 no signal can be scoped: the filter refuses all,
		# the command's own included (a documented difference).
		run csbx sh -c 'kill -TERM $$'
		assert_output --partial "not permitted"
		return
	fi
	run csbx sh -c 'kill -TERM $$'
	assert_equal "$status" 143
}

# The ruleset's descriptor must not sit where the child puts its status
# and seccomp descriptors: with the audit on stderr it would be 3.
@test "landlock with the audit record on stderr runs the command" {
	write_policy "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\"},
	  \"sandbox\": \"landlock\", \"audit\": \"stderr\"}"
	run cffprobe -v error -show_entries format=nb_streams -of csv=p=0 sample.mp4
	assert_success
	assert_line 2
	assert_line --partial '"backend":"landlock"'
}

# allowRead inside a writable tree means read-only there under bwrap;
# Landlock cannot subtract write rights from the tree: refused.
@test "landlock: allowRead inside allowWrite is refused (125), not left writable" {
	mkdir out/ro
	ll_policy "" "\"allowWrite\": [\"$W/out\"], \"allowRead\": [\"$W/out/ro\"]"
	run -125 cffprobe sample.mp4
	assert_output --partial "cannot keep $W/out/ro (filesystem.allowRead"
}

# Root keeps its bounding set across exec unless securebits say
# otherwise; both need CAP_SETPCAP. Root that comes without it (setpriv
# takes it out of the bounding set, so the exec of sbexec does not grant
# it) cannot empty the set: the command would get it back by its own
# exec, so nothing runs.
@test "landlock: root without CAP_SETPCAP, whose command would regain its capabilities, is refused with 125" {
	[ "$(id -u)" -eq 0 ] || skip "runs as root (the tests run as $(id -un))"
	# Without sbexec such a root's programs run with capabilities.
	run -0 setpriv --bounding-set -setpcap -- sh -c \
		'grep "^CapEff:" /proc/self/status'
	assert_output --regexp '^CapEff:[[:space:]]+0*[1-9a-f]'
	run -0 csbx sh -c 'echo ran'
	assert_output ran
	run -125 setpriv --bounding-set -setpcap -- "$IN" "$SBEXEC" sh -c 'echo ran'
	assert_output --partial "the capability bounding set (uid 0 without CAP_SETPCAP)"
	refute_output --partial ran
}
