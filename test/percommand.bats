#!/usr/bin/env bats
# Per-command policies (DESIGN 10): a command's value may be an object,
# {"path": ..., overrides}. Each override changes what that command may
# do and nothing for the others; the schema stays closed; the start
# record names the overrides; the example policy is least-privilege.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	sample
}

# commands_policy COMMANDS [EXTRA]: the test policy with these commands
# (JSON members) and EXTRA top-level members.
commands_policy() {
	write_policy "{\"commands\": {$1}, \"audit\": \"$AUDIT\" ${2:-}}"
}

FF='"ffprobe": "/usr/bin/ffprobe"'
FFW='"ffmpeg": {"path": "/usr/bin/ffmpeg", "filesystem": {"allowWrite": ["."]}}'

# ------------------------------------------------------------ schema

@test "a command object without path is refused, with its key path" {
	commands_policy '"ffprobe": {"limits": {"timeoutMs": 5}}'
	run -125 sbx --check
	assert_output "sbexec: $SBEXEC_POLICY: commands.ffprobe.path: required"
}

@test "an unknown key inside a command's filesystem is refused, with its key path" {
	commands_policy '"ffprobe": {"path": "/usr/bin/ffprobe", "filesystem": {"allowWrte": ["."]}}'
	run -125 sbx --check
	assert_output "sbexec: $SBEXEC_POLICY: commands.ffprobe.filesystem.allowWrte: unknown key"
}

@test "binShell, bwrap, audit and bypass cannot be set for one command" {
	local k
	for k in '"binShell": "/bin/sh"' '"bwrap": "/usr/bin/bwrap"' \
	    '"audit": "stderr"' '"bypass": []'; do
		commands_policy "\"ffprobe\": {\"path\": \"/usr/bin/ffprobe\", $k}"
		run -125 sbx --check
		assert_output --regexp "commands\.ffprobe\.[a-zA-Z]+: cannot be set for one command"
	done
}

@test "a wrong type in an override is refused, with its key path" {
	commands_policy '"ffprobe": {"path": "/usr/bin/ffprobe", "limits": {"timeoutMs": "1s"}}'
	run -125 sbx --check
	assert_output "sbexec: $SBEXEC_POLICY: commands.ffprobe.limits.timeoutMs: must be an integer"
	commands_policy '"ffprobe": ["/usr/bin/ffprobe"]'
	run -125 sbx --check
	assert_output --partial 'commands.ffprobe: must be a string (the path) or an object with "path"'
}

@test "a bypassed command's override that only a sandbox honours is refused, each with its key path; a sandboxed one's loads" {
	local k
	for k in '"network": {"allow": ["media.test"]}' \
	    '"filesystem": {"denyRead": ["/etc"]}' '"allowUnixSockets": true' \
	    '"enableWeakerNestedSandbox": true' '"sandbox": "landlock"' \
	    '"limits": {"tmpBytes": 1048576}'; do
		commands_policy "\"ffprobe\": {\"path\": \"/usr/bin/ffprobe\", $k}"
		run -0 sbx --check	# the control: sandboxed, it means something
		commands_policy "\"ffprobe\": {\"path\": \"/usr/bin/ffprobe\", $k}" ', "bypass": ["ffprobe"]'
		run -125 sbx --check
		assert_output --regexp "^sbexec: $SBEXEC_POLICY: commands\.ffprobe\.[a-zA-Z.]+: ffprobe is bypassed: it runs without the sandbox, which alone could honour this key; remove the key, or the command from bypass$"
		run -125 sbx ffprobe -version
		refute_output --partial "ffprobe version"
	done
}

@test "a bypassed command's own policy prints as no sandbox, with what still applies: environment and limits" {
	commands_policy '"ffprobe": {"path": "/usr/bin/ffprobe", "envAllowList": ["PATH"], "limits": {"timeoutMs": 1000}}' ', "bypass": ["ffprobe"]'
	run -0 sbx --check
	assert_output --partial "command ffprobe, its own policy (sets envAllowList, limits.timeoutMs):
BYPASS: no sandbox, no filesystem or network rules; only these apply:
environment: PATH
limits:
  timeout          1000 ms"
}

# ------------------------------------------------------ one command only

@test "filesystem.allowWrite for ffmpeg only: ffmpeg writes, ffprobe -o and -report cannot" {
	run ffprobe -v error -show_format -o direct.json sample.mp4
	assert_success
	[ -s direct.json ]
	rm direct.json
	commands_policy "$FF, $FFW"
	run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -c copy out.mp4
	assert_success
	[ -s out.mp4 ]
	local before
	before=$(ls -A)
	run "$BIN/ffprobe" -v error -show_format -o out.json sample.mp4
	assert_failure
	run "$BIN/ffprobe" -v error -report sample.mp4
	assert_equal "$(ls -A)" "$before"
	run audit_get start 'r["overrides"]'
	assert_output '[]'
	run "$BIN/ffmpeg" -nostdin -v error -y -i sample.mp4 -c copy out.mp4
	run audit_get start 'r["overrides"]'
	assert_output '["filesystem.allowWrite"]'
}

@test "network for one command: its allow-list replaces the inherited value whole" {
	commands_policy '"sh": {"path": "/bin/sh",
	    "network": {"allow": ["media.example.com"]}}, "sh2": "/bin/sh"'
	run sbx sh -c 'echo "[$http_proxy]"'
	assert_success
	assert_output "[http://127.0.0.1:3128]"
	run audit_get start 'r["overrides"]'
	assert_output '["network"]'
	run sbx sh2 -c 'echo "[${http_proxy:-}]"'
	assert_output "[]"
}

@test "envAllowList for one command: the name reaches it and not the other" {
	commands_policy '"sh": {"path": "/bin/sh", "envAllowList": ["PATH", "SBEXEC_T"]},
	    "sh2": "/bin/sh"'
	SBEXEC_T=here run sbx sh -c 'echo "[$SBEXEC_T]"'
	assert_output "[here]"
	SBEXEC_T=here run sbx sh2 -c 'echo "[$SBEXEC_T]"'
	assert_output "[]"
}

@test "limits for one command: its timeout stops it, the other runs on" {
	commands_policy '"sh": {"path": "/bin/sh", "limits": {"timeoutMs": 300},
	    "programs": ["/usr/bin/sleep"]},
	    "sh2": {"path": "/bin/sh", "programs": ["/usr/bin/sleep"]}'
	run -124 sbx sh -c 'sleep 2'
	run -0 sbx sh2 -c 'sleep 1'
	run audit_get end 'r["timedOut"]'
	assert_output false
}

@test "filesystem sub-keys are inherited unless set: a command's denyRead replaces, allowWrite stays" {
	mkdir a b
	echo A >a/f
	echo B >b/f
	write_policy "{\"commands\": {\"sh\": {\"path\": \"/bin/sh\",
	    \"filesystem\": {\"denyRead\": [\"$W/b\"]},
	    \"programs\": [\"/usr/bin/cat\"]}, \"sh2\": $(sh_programs)},
	    \"audit\": \"$AUDIT\", \"filesystem\": {\"denyRead\": [\"$W/a\"],
	    \"allowWrite\": [\"$W/b\"]}}"
	run sbx sh2 -c 'cat a/f; cat b/f'
	refute_line A
	assert_line B
	run sbx sh -c 'cat a/f; cat b/f; echo x >b/g'
	assert_line A
	refute_line B
	run sbx sh2 -c 'echo x >b/g'
	assert_success
	[ -f b/g ]
}

@test "network and allowUnixSockets for one command are loud for it only" {
	commands_policy "$FF, \"ffmpeg\": {\"path\": \"/usr/bin/ffmpeg\", \"network\": \"host\"}"
	run "$BIN/ffprobe" -v error sample.mp4
	run audit_get start 'r["reasons"]'
	assert_output '[]'
	run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -f null -
	run audit_get start 'r["reasons"]'
	assert_output '["network: host"]'
	run sbx --check
	assert_line --partial 'warning: ffmpeg: network: "host"'
	assert_line "command ffmpeg, its own policy (sets network):"
}

@test "sandbox for one command: ffprobe under Landlock, ffmpeg under bwrap" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	commands_policy "\"ffprobe\": {\"path\": \"/usr/bin/ffprobe\", \"sandbox\": \"landlock\"},
	    \"ffmpeg\": \"/usr/bin/ffmpeg\""
	run "$BIN/ffprobe" -v error sample.mp4
	run audit_get start 'r["backend"]'
	assert_output '"landlock"'
	run "$BIN/ffmpeg" -nostdin -v error -i sample.mp4 -f null -
	run audit_get start 'r["backend"]'
	assert_output '"bwrap"'
}

# ------------------------------------------------------ the example

# The example policy, in a git checkout: ffprobe writes nothing, ffmpeg
# writes ./out; both run, under Landlock too (in the simulated container).
@test "the example policy in a git checkout: ffprobe writes nothing, ffmpeg writes ./out, on both backends" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	mkdir -p "$T/etc" .git out
	sed "s|\"audit\": \"auto\"|\"audit\": \"$AUDIT\"|" \
		"$TOP/policy.example.json" >"$T/etc/policy.json"
	export SBEXEC_POLICY="$T/etc/policy.json"
	chmod 644 "$SBEXEC_POLICY"
	local before backend
	before=$(ls -A)
	for backend in bwrap landlock; do
		[ "$backend" = bwrap ] || container_bin
		run "$BIN/ffprobe" -v error -show_format -o out.json sample.mp4
		assert_failure
		run "$BIN/ffprobe" -v error -report sample.mp4
		run "$BIN/ffprobe" -v error -show_entries format=nb_streams \
			-of csv=p=0 sample.mp4
		assert_output 2
		assert_equal "$(ls -A)" "$before"
		run "$BIN/ffmpeg" -nostdin -v error -y -i sample.mp4 -c copy out/x.mp4
		assert_success
		[ -s out/x.mp4 ]
		rm out/x.mp4
		run audit_get start 'r["backend"]'
		assert_output "\"$backend\""
	done
}
