#!/usr/bin/env bats
# The sandbox contract (DESIGN 2, 3, 6, 7): what the command can read,
# write, reach and inherit. Every claim is shown both ways: the attack
# works when the real binary runs directly, and fails through sbexec.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	sample
	SECRET="TOPSECRET-$RANDOM$RANDOM"
	CLEANUP=()
	BG_PIDS=()
}

teardown() {
	local p d
	for p in "${BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	for d in "${CLEANUP[@]}"; do
		rm -rf -- "$d"
	done
}

# fs_policy MEMBERS: the test policy with these filesystem members
# (JSON, without the braces).
fs_policy() {
	policy ", \"filesystem\": {$1}"
}

# secret_file PATH: a file holding $SECRET (its directory created).
secret_file() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$SECRET" >"$1"
}

# outside_dir VAR: a fresh directory outside /tmp, removed in teardown.
outside_dir() {
	local d
	d=$(mktemp -d /var/tmp/sbx.XXXXXX)
	CLEANUP+=("$d")
	printf -v "$1" '%s' "$d"
}

# ffmpeg_read PROG FILE: PROG (ffmpeg or "$BIN/ffmpeg") copies FILE's
# bytes to stdout.
ffmpeg_read() {
	"$1" -nostdin -v error -f data -i "$2" -map 0 -c copy -f data -
}

# ffmpeg_write PROG OUT: PROG remuxes the sample into OUT (overwriting).
ffmpeg_write() {
	"$1" -nostdin -v error -y -i "$W/sample.mp4" -c copy -f mp4 "$2"
}

# nb_streams PROG ARGS: what PROG (ffprobe or "$BIN/ffprobe") says the
# number of streams of the input is.
nb_streams() {
	local prog=$1
	shift
	"$prog" -v error -show_entries format=nb_streams -of csv=p=0 "$@"
}

# assert_read_blocked FILE: ffmpeg reads FILE directly, and gets
# neither a success nor a byte of it through sbexec.
assert_read_blocked() {
	run ffmpeg_read ffmpeg "$1"
	assert_success
	assert_output "$SECRET"
	run ffmpeg_read "$BIN/ffmpeg" "$1"
	assert_failure
	refute_output --partial "$SECRET"
}

# assert_write_blocked OUT: ffmpeg writes OUT directly, and fails to
# through sbexec, leaving no file.
assert_write_blocked() {
	run ffmpeg_write ffmpeg "$1"
	assert_success
	[ -s "$1" ]
	rm -f -- "$1"
	run ffmpeg_write "$BIN/ffmpeg" "$1"
	assert_failure
	[ ! -e "$1" ]
}

# background CMD...: CMD in the background, killed in teardown.
background() {
	"$@" >/dev/null 2>&1 3>&- &
	BG_PIDS+=($!)
}

# wait_for CMD...: until CMD succeeds (10 s at most).
wait_for() {
	for _ in $(seq 100); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no answer from: $*"
}

# start_http: a loopback HTTP server on a free port serving $W, up and
# answering at $URL (the sample) when this returns.
start_http() {
	local port
	port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	background python3 -m http.server --bind 127.0.0.1 "$port" \
		--directory "$W"
	URL="http://127.0.0.1:$port/sample.mp4"
	wait_for python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=1)' "$URL"
}

# start_unix_server: a host Unix socket at $SOCK that sends the sample
# to whoever connects (think /run/docker.sock).
start_unix_server() {
	SOCK="$T/media.sock"
	background python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
data = open(sys.argv[2], "rb").read()
while True:
    c = s.accept()[0]; c.sendall(data); c.close()' "$SOCK" "$W/sample.mp4"
	wait_for test -S "$SOCK"
}

# env_names CMD...: the sorted variable names CMD (running env) prints.
env_names() {
	"$@" | sed -n 's/=.*//p' | sort
}

# ---------------------------------------------------------------- files

@test "denyRead hides a file: ffmpeg gets none of its bytes" {
	secret_file "$T/host/key.txt"
	fs_policy "\"denyRead\": [\"$T/host/key.txt\"]"
	assert_read_blocked "$T/host/key.txt"
}

@test "denyRead hides a directory: its listing is empty inside" {
	secret_file "$T/host/key.txt"
	fs_policy "\"denyRead\": [\"$T/host\"]"
	run ls -A "$T/host"
	assert_output key.txt
	run sh_in_sandbox "ls -A '$T/host'"
	assert_success
	# Landlock (a difference): a name cannot be hidden, only its content.
	if landlock; then assert_output key.txt; else assert_output ""; fi
	assert_read_blocked "$T/host/key.txt"
}

@test "allowRead re-exposes a file inside a denied directory, read-only" {
	secret_file "$T/host/key.txt"
	echo public >"$T/host/public.txt"
	fs_policy "\"denyRead\": [\"$T/host\"],
	  \"allowRead\": [\"$T/host/public.txt\"]"
	run ffmpeg_read "$BIN/ffmpeg" "$T/host/public.txt"
	assert_success
	assert_output public
	run sh_in_sandbox "echo x >>'$T/host/public.txt'"
	assert_failure
	assert_equal "$(cat "$T/host/public.txt")" public
	assert_read_blocked "$T/host/key.txt"
}

@test "allowWrite ['.'] lets ffmpeg -y write into the working directory" {
	fs_policy '"allowWrite": ["."]'
	run ffmpeg_write "$BIN/ffmpeg" out.mp4
	assert_success
	run nb_streams ffprobe out.mp4
	assert_output 2
}

@test "allowWrite is the only writable place: another host directory is not" {
	mkdir "$T/other"
	fs_policy '"allowWrite": ["."]'
	assert_write_blocked "$T/other/out.mp4"
}

@test "without allowWrite the working directory is read-only" {
	assert_write_blocked "$W/out.mp4"
	run sh_in_sandbox 'echo x >sample.mp4'
	assert_failure
	cmp sample.mp4 "$BATS_FILE_TMPDIR/sample.mp4"
}

@test "denyWrite inside allowWrite is read-only" {
	mkdir ro
	fs_policy '"allowWrite": ["."], "denyWrite": ["./ro"]'
	if landlock; then
		# Landlock cannot subtract from a granted tree: refused.
		run -125 "$BIN/ffmpeg" -version
		assert_output --partial "cannot keep $W/ro (filesystem.denyWrite"
		return
	fi
	assert_write_blocked "$W/ro/out.mp4"
	run ffmpeg_write "$BIN/ffmpeg" out.mp4
	assert_success
	[ -s out.mp4 ]
}

@test "at an equal path deny wins: allowWrite and denyRead on ./a hide it" {
	secret_file a/key.txt
	fs_policy '"allowWrite": ["./a"], "denyRead": ["./a"]'
	run sh_in_sandbox 'ls -A a'
	assert_success
	if landlock; then assert_output key.txt; else assert_output ""; fi
	assert_read_blocked a/key.txt
	# Whatever is written there lands in a tmpfs (bwrap) or nowhere
	# (Landlock), not on the host.
	run ffmpeg_write "$BIN/ffmpeg" a/out.mp4
	[ ! -e a/out.mp4 ]
}

@test "allowWrite ['.'] with denyRead ['./secrets'] hides ./secrets" {
	secret_file secrets/key.txt
	fs_policy '"allowWrite": ["."], "denyRead": ["./secrets"]'
	if landlock; then
		run -125 "$BIN/ffmpeg" -version
		assert_output --partial "cannot keep $W/secrets (filesystem.denyRead"
		return
	fi
	run sh_in_sandbox 'ls -A secrets'
	assert_success
	assert_output ""
	assert_read_blocked secrets/key.txt
	run ffmpeg_write "$BIN/ffmpeg" out.mp4
	assert_success
}

@test "a working directory hidden by denyRead is refused with 126, naming the rule" {
	mkdir "$T/out"
	fs_policy "\"denyRead\": [\"$T\"], \"allowWrite\": [\"$T/out\"]"
	run -126 sbx sh -c "touch '$T/out/ran'"
	assert_output --partial "working directory $W is hidden"
	assert_output --partial "filesystem.denyRead \"$T\""
	assert_output --partial "filesystem.allowRead"
	[ ! -e "$T/out/ran" ]
	run grep -c '"type":"start"' "$AUDIT"
	assert_output 0
	run audit_get error 'r["reason"]'
	assert_output --partial "working directory $W is hidden by filesystem.denyRead"
}

@test "privateTmp: /tmp is empty inside" {
	local out probe
	outside_dir out
	probe=$(mktemp /tmp/sbx-visible.XXXXXX)
	CLEANUP+=("$probe")
	cd "$out"
	fs_policy '"privateTmp": true'
	run ls -A /tmp
	assert_line "${probe#/tmp/}"
	run sbx sh -c 'ls -A /tmp'
	assert_success
	# Landlock: /tmp is hidden, not replaced: its names stay listable.
	if landlock; then assert_line "${probe#/tmp/}"; else assert_output ""; fi
	run sbx sh -c "cat '$probe'"
	assert_failure
	run nb_streams "$BIN/ffprobe" "$W/sample.mp4"
	assert_failure
}

@test "privateTmp: a path the policy names under /tmp still follows its rule" {
	local out
	outside_dir out
	cd "$out"
	fs_policy "\"privateTmp\": true, \"allowRead\": [\"$W\"],
	  \"allowWrite\": [\".\"]"
	run nb_streams "$BIN/ffprobe" "$W/sample.mp4"
	assert_success
	assert_output 2
	run ffmpeg_write "$BIN/ffmpeg" "$out/out.mp4"
	assert_success
	[ -s "$out/out.mp4" ]
}

@test "policy paths that do not exist are skipped and the command runs" {
	fs_policy '"denyRead": ["/nonexistent/sbx"], "allowRead": ["./nope"],
	  "allowWrite": ["./missing"], "denyWrite": ["/nonexistent/w"]'
	run -0 sbx -n ffprobe
	refute_output --partial nonexistent
	refute_output --partial missing
	run nb_streams "$BIN/ffprobe" sample.mp4
	assert_success
	assert_output 2
}

# -------------------------------------------------------------- network

@test "network none: ffprobe cannot reach a loopback HTTP server" {
	start_http
	run nb_streams ffprobe "$URL"
	assert_success
	assert_output 2
	run nb_streams "$BIN/ffprobe" "$URL"
	assert_failure
	refute_output 2
}

# The shell reads the file itself (no child): its /proc/self is the
# command's. bwrap's is the sandbox's own network namespace; Landlock
# grants nothing of /proc/PID/net (landlock.c).
@test "network none: the host's listening sockets do not show in the command's /proc/self/net/tcp" {
	local hex
	start_http
	hex=$(printf '0100007F:%04X' "$(echo "$URL" | sed 's|.*:\([0-9]*\)/.*|\1|')")
	run grep -q "$hex" /proc/self/net/tcp
	assert_success
	run sh_in_sandbox 'while IFS= read -r l; do echo "$l"; done </proc/self/net/tcp'
	refute_output --partial "$hex"
	if landlock; then
		assert_failure
		assert_output --partial 'Permission denied'
	else
		assert_success
		assert_output --partial local_address
	fi
}

@test "network host: ffprobe reaches the loopback HTTP server" {
	start_http
	policy ', "network": "host"'
	run nb_streams "$BIN/ffprobe" "$URL"
	assert_success
	assert_output 2
}

@test "network host: the start record is loud" {
	policy ', "network": "host"'
	run nb_streams "$BIN/ffprobe" sample.mp4
	assert_success
	run audit_get start 'r["loud"]'
	assert_output true
	run audit_get start 'r["reasons"]'
	assert_output --partial network
}

@test "seccomp: ffprobe cannot connect to a host Unix socket" {
	start_unix_server
	run nb_streams ffprobe "unix:$SOCK"
	assert_success
	assert_output 2
	run nb_streams "$BIN/ffprobe" "unix:$SOCK"
	assert_failure
	assert_output --partial "Operation not permitted"
}

@test "allowUnixSockets lifts the Unix socket rule, loudly" {
	start_unix_server
	policy ', "allowUnixSockets": true'
	run nb_streams "$BIN/ffprobe" "unix:$SOCK"
	assert_success
	assert_output 2
	run audit_get start 'r["loud"]'
	assert_output true
}

# ---------------------------------------------------------- environment

@test "only allow-listed variables reach the command: PATH, not a secret" {
	export SECRET_TOKEN=xyz
	run env_names sh -c env
	assert_line SECRET_TOKEN
	run env_names sbx sh -c env
	refute_line SECRET_TOKEN
	assert_line PATH
	run sbx sh -c 'printf %s "$PATH"'
	assert_output "$PATH"
}

@test "envAllowList replaces the default: ['LANG'] passes LANG and drops PATH" {
	export SECRET_TOKEN=xyz LANG=C.UTF-8
	policy ', "envAllowList": ["LANG"]'
	run env_names sbx sh -c env
	assert_line LANG
	refute_line PATH
	refute_line SECRET_TOKEN
}

@test "inheritHostEnv passes the whole host environment" {
	export SECRET_TOKEN=xyz
	policy ', "inheritHostEnv": true'
	run sbx sh -c 'printf %s "$SECRET_TOKEN"'
	assert_success
	assert_output xyz
}

@test "inheritHostEnv: the start record is loud" {
	policy ', "inheritHostEnv": true'
	run sbx sh -c true
	assert_success
	run audit_get start 'r["loud"]'
	assert_output true
	run audit_get start 'r["reasons"]'
	assert_output --partial inheritHostEnv
}

# ------------------------------------------------------ hostile names

# probe_hostile NAME [ARGS]: the sample under NAME probes the same with
# ffprobe and through sbexec, ARGS (default NAME) naming the input, and
# runs nothing: a shell pasting NAME unquoted would create a pwned file,
# sbexec does not, though the working directory is writable.
probe_hostile() {
	local name=$1
	shift
	[ $# -gt 0 ] || set -- "$name"
	fs_policy '"allowWrite": ["."]'
	sample "$name"
	run nb_streams ffprobe "$@"
	assert_success
	assert_output 2
	run nb_streams "$BIN/ffprobe" "$@"
	assert_success
	assert_output 2
	run find "$W" -name 'pwned*'
	assert_output ""
}

# shell_paste_runs NAME: the attack: pasted unquoted into a shell line,
# NAME runs code (creates a pwned file, in $T, removed again).
shell_paste_runs() {
	(cd "$T" && sh -c "true $1" && ls pwned* && rm -f pwned*)
}

@test "hostile name: spaces" {
	probe_hostile 'a b  c.mp4'
}

@test "hostile name: single and double quotes" {
	probe_hostile "it's \"q\" '.mp4"
}

@test "hostile name: \$(touch pwned) executes nothing" {
	shell_paste_runs '$(touch pwned).mp4'
	probe_hostile '$(touch pwned).mp4'
}

@test "hostile name: backticks execute nothing" {
	shell_paste_runs '`touch pwned2`.mp4'
	probe_hostile '`touch pwned2`.mp4'
}

@test "hostile name: a newline" {
	shell_paste_runs $'new\nline; touch pwned3.mp4'
	probe_hostile $'new\nline; touch pwned3.mp4'
}

@test "hostile name: invalid UTF-8 bytes" {
	probe_hostile $'\xff\xfe.mp4'
}

@test "hostile name: a leading dash, after -i" {
	probe_hostile -x.mp4 -i -x.mp4
}

@test "hostile name: a leading dash, as ./-x.mp4" {
	probe_hostile -x.mp4 ./-x.mp4
}

# ------------------------------------------------------------ plumbing

@test "stdin is piped through to the command" {
	run sh -c 'cat sample.mp4 | ffprobe -v error -show_entries format=nb_streams -of csv=p=0 -'
	assert_output 2
	run sh -c 'cat sample.mp4 | "$0" -v error -show_entries format=nb_streams -of csv=p=0 -' "$BIN/ffprobe"
	assert_success
	assert_output 2
}

@test "more than 128 KiB of arguments pass exactly as without sbexec" {
	local args=() i a
	for i in $(seq 3000); do
		printf -v a "arg %04d 'q' \"d\" \$x %040d" "$i" 0
		args+=("$a")
	done
	[ "${#args[0]}" -eq 60 ]
	/bin/sh -c 'printf "%s\n" "$#" "$@"' x "${args[@]}" >"$T/real"
	sbx sh -c 'printf "%s\n" "$#" "$@"' x "${args[@]}" >"$T/sbx"
	assert_equal "$(head -n 1 "$T/sbx")" 3000
	cmp "$T/real" "$T/sbx"
}

@test "one argument holding every byte 1-255 round-trips" {
	local all
	all=$(printf "$(printf '\\%03o' $(seq 1 255))")
	[ "$(printf %s "$all" | wc -c)" -eq 255 ]
	printf %s "$all" | od -An -tx1 >"$T/want"
	sbx sh -c 'printf %s "$1"' x "$all" | od -An -tx1 >"$T/got"
	cmp "$T/want" "$T/got"
}

# ---------------------------------------------------------------- audit

@test "audit: the start record is JSON with the policy hash, cwd, argv, mode, id" {
	run "$BIN/ffprobe" -v error sample.mp4
	assert_success
	run audit_get start 'r["policySha256"]'
	assert_output "\"$(sha256sum "$SBEXEC_POLICY" | cut -d' ' -f1)\""
	run audit_get start 'r["cwd"]'
	assert_output "\"$W\""
	run audit_get start 'r["argv"][1:]'
	assert_output '["-v", "error", "sample.mp4"]'
	run audit_get start 'r["mode"]'
	assert_output '"sandbox"'
	run audit_get start 'r["loud"]'
	assert_output false
	run audit_get start 'r["id"]'
	assert_output --regexp '^"[0-9a-f]{32}"$'
}

@test "audit: argv with invalid UTF-8 is valid JSON with the byte as \\udcff" {
	run -1 "$BIN/ffprobe" -v error $'\xffname.mp4'
	grep -F '\udcffname.mp4' "$AUDIT"
	run audit_get start \
	    'r["argv"][-1].encode("utf-8", "surrogateescape").hex()'
	assert_output "\"$(printf '\xffname.mp4' | od -An -tx1 | tr -d ' \n')\""
}

# assert_audit_lines COUNT: the audit file is COUNT lines, each one JSON
# object.
assert_audit_lines() {
	run python3 - "$AUDIT" <<-'EOF'
		import json, sys
		lines = open(sys.argv[1], "rb").read().split(b"\n")
		assert lines.pop() == b"", "no final newline"
		for i, line in enumerate(lines):
		    try:
		        json.loads(line)
		    except ValueError as e:
		        print("line", i + 1, e, repr(line[500:530]))
		print(len(lines), "lines")
	EOF
	assert_output "$1 lines"
}

@test "audit: every record is one valid JSON line, whatever its length" {
	# deny records for names of 300..1000 bytes: the record crosses
	# 512 and 1024 bytes
	local n name
	for n in $(seq 300 1000); do
		printf -v name "%${n}s" ""
		sbx "${name// /a}" 2>/dev/null || true
	done
	assert_audit_lines 701
}

@test "audit: a start record of any length is written, and the command runs" {
	local len t k pad runs=1
	sbx sh -c 'printf %s "$1"' x p >/dev/null
	len=$(grep '"type":"start"' "$AUDIT" | wc -c)
	for t in 512 1024; do
		# around the argument length that makes the record t bytes
		for k in $(seq $((t - len - 2)) $((t - len + 2))); do
			[ "$k" -gt 0 ] || continue
			printf -v pad "%${k}s" ""
			run sbx sh -c 'printf %s "$1"' x "${pad// /p}"
			assert_success
			assert_output "${pad// /p}"
			runs=$((runs + 1))
		done
	done
	assert_audit_lines $((2 * runs))
}

# assert_audit_blocks SINK: with the audit going to SINK, ffmpeg -y into
# the writable cwd is not run (125) and leaves no file; with a good sink
# it writes the file.
assert_audit_blocks() {
	fs_policy '"allowWrite": ["."]'
	run ffmpeg_write "$BIN/ffmpeg" out.mp4
	assert_success
	[ -s out.mp4 ]
	rm out.mp4
	AUDIT=$1
	fs_policy '"allowWrite": ["."]'
	run -125 ffmpeg_write "$BIN/ffmpeg" out.mp4
	assert_output --partial "audit sink $1"
	[ ! -e out.mp4 ]
}

@test "audit: a sink in a directory that does not exist stops the command (125)" {
	assert_audit_blocks "$T/missing/audit.jsonl"
}

@test "audit: a sink that is a symlink stops the command (125)" {
	ln -s "$T/target.jsonl" "$T/link.jsonl"
	assert_audit_blocks "$T/link.jsonl"
	[ ! -e "$T/target.jsonl" ]
}

# --------------------------------------------------------- exit status

@test "exit 126: a name the policy does not list" {
	run -126 sbx nosuch
	assert_output --partial "nosuch: not a command of the policy"
}

@test "exit 127: a command whose target does not exist" {
	write_policy "{\"commands\": {\"ghost\": \"/nonexistent/ghost\"},
	  \"audit\": \"$AUDIT\"}"
	run -127 sbx ghost
	assert_output --partial "/nonexistent/ghost: No such file or directory"
}

@test "exit 126: a target that is not executable, and nothing runs" {
	printf '#!/bin/sh\ntouch %s/ran\n' "$T" >"$T/script"
	chmod 644 "$T/script"
	write_policy "{\"commands\": {\"script\": \"$T/script\"},
	  \"audit\": \"$AUDIT\"}"
	run -126 sbx script
	assert_output --partial "not an executable file"
	[ ! -e "$T/ran" ]
}

@test "exit 125: a command whose target is sbexec itself" {
	write_policy "{\"commands\": {\"loop\": \"$SBEXEC\"},
	  \"audit\": \"$AUDIT\"}"
	run -125 sbx loop
	assert_output --partial "exec loop"
}

@test "the command's own exit status passes through" {
	run -3 sbx sh -c 'exit 3'
}
