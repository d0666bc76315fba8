#!/usr/bin/env bats
# The policy: the checks on its file (DESIGN 1), its closed schema and its
# path forms (DESIGN 2), the bypass rules (DESIGN 4), the decision, --check
# and the options (DESIGN 7). Every refusal checks the exit status and the
# one line that names the file and the key path.

load helper

setup() {
	common_setup
}

teardown() {
	if [ -n "${HOME_DIR:-}" ]; then
		rm -rf "$HOME_DIR"
	fi
}

# The smallest valid policy, as members of the top-level object.
CMDS='"commands": {"ffprobe": "/usr/bin/ffprobe"}'

# The secret places --check advises hiding (issue 18), hidden, so that a
# test counts its own warnings whatever this host holds.
SECRETS='"/run/secrets", "/var/run/secrets", "/etc/kubernetes",
  "/var/lib/cloud", "/var/lib/docker", "/etc/ssl/private", "~/.docker",
  "~/.kube"'
HIDE_SECRETS="\"filesystem\": {\"denyRead\": [$SECRETS]}"

# expect_policy_error JSON KEYPATH MESSAGE: loading JSON fails with 125 and
# exactly one line, "sbexec: FILE: KEYPATH: MESSAGE..." (MESSAGE is the
# start of what follows the key path).
expect_policy_error() {
	write_policy "$1"
	run sbx --check
	assert_failure 125
	assert_equal "${#lines[@]}" 1
	[[ $output == "sbexec: $SBEXEC_POLICY: $2: $3"* ]] ||
		fail "expected 'sbexec: $SBEXEC_POLICY: $2: $3...', got '$output'"
}

# expect_member_error MEMBERS KEYPATH MESSAGE: the same for the smallest
# valid policy with MEMBERS (JSON) added.
expect_member_error() {
	expect_policy_error "{$CMDS, $1}" "$2" "$3"
}

# expect_file_error MESSAGE: loading the policy file as it is fails with
# 125 and the one line "sbexec: FILE: MESSAGE".
# The advice after a policy anyone may rewrite.
UMASK_HINT=". A checkout made with umask 0000 (GitLab's Docker and Kubernetes executors) is writable by anyone: install the policy with install -D -m 644 FILE /etc/sbexec/policy.json and leave SBEXEC_POLICY unset"

expect_file_error() {
	run sbx --check
	assert_failure 125
	assert_equal "${#lines[@]}" 1
	assert_output "sbexec: $SBEXEC_POLICY: $1"
}

# refuses_bypass NAME: NAME, listed as a command pointing at a harmless
# binary and bypassed, is refused as an interpreter; a failure names NAME.
refuses_bypass() {
	write_policy "{\"commands\": {\"$1\": \"/usr/bin/ffprobe\"},
	  \"bypass\": [\"$1\"]}"
	run sbx --check
	[ "$status" -eq 125 ] && [ "${#lines[@]}" -eq 1 ] &&
	    [ "$output" = "sbexec: $SBEXEC_POLICY: bypass[0]: \"$1\" is an interpreter or launcher; it may never be bypassed" ] ||
		fail "bypass of \"$1\": status $status, output: $output"
}

# pad_policy SIZE: a valid policy padded with spaces to exactly SIZE bytes.
pad_policy() {
	local json="{$CMDS, $HIDE_SECRETS}"
	{
		printf '%s' "$json"
		head -c $(($1 - ${#json})) /dev/zero | tr '\0' ' '
	} >"$SBEXEC_POLICY"
	assert_equal "$(stat -c %s "$SBEXEC_POLICY")" "$1"
}

# audit_field TYPE FIELD: FIELD of the last audit record of TYPE, as JSON
# (the record is parsed, so this also checks that it is valid JSON).
audit_field() {
	grep "\"type\":\"$1\"" "$AUDIT" | tail -n 1 |
		python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.read())[sys.argv[1]]))' "$2"
}

# ---- DESIGN 2: the closed schema -----------------------------------------

@test "an unknown top-level key is refused" {
	expect_member_error '"shell": "/bin/sh"' shell "unknown key"
}

@test "an unknown key in filesystem is refused (keys are case-sensitive)" {
	expect_member_error '"filesystem": {"denyread": []}' filesystem.denyread "unknown key"
}

@test "an unknown key in limits is refused" {
	expect_member_error '"limits": {"timeout": 5}' limits.timeout "unknown key"
}

@test "commands must be an object" {
	expect_policy_error '{"commands": ["/usr/bin/ffprobe"]}' commands "must be an object"
}

@test "a command's path must be a string" {
	expect_policy_error '{"commands": {"ffprobe": true}}' commands.ffprobe "must be a string"
}

@test "bypass must be an array" {
	expect_member_error '"bypass": "ffprobe"' bypass "must be an array"
}

@test "binShell must be a string" {
	expect_member_error '"binShell": 1' binShell "must be a string"
}

@test "bwrap must be a string" {
	expect_member_error '"bwrap": true' bwrap "must be a string"
}

@test "envAllowList must be an array" {
	expect_member_error '"envAllowList": "PATH"' envAllowList "must be an array"
}

@test "an envAllowList entry must be a string" {
	expect_member_error '"envAllowList": ["PATH", 1]' "envAllowList[1]" "must be a string"
}

@test "inheritHostEnv must be a boolean" {
	expect_member_error '"inheritHostEnv": "false"' inheritHostEnv "must be a boolean"
}

@test "enableWeakerNestedSandbox must be a boolean" {
	expect_member_error '"enableWeakerNestedSandbox": 0' enableWeakerNestedSandbox "must be a boolean"
}

@test "filesystem must be an object" {
	expect_member_error '"filesystem": []' filesystem "must be an object"
}

@test "filesystem.denyRead must be an array" {
	expect_member_error '"filesystem": {"denyRead": "/etc/shadow"}' filesystem.denyRead "must be an array"
}

@test "filesystem.privateTmp must be a boolean" {
	expect_member_error '"filesystem": {"privateTmp": 1}' filesystem.privateTmp "must be a boolean"
}

@test "sandbox must be bwrap, landlock or auto" {
	expect_member_error '"sandbox": "docker"' sandbox 'must be "bwrap", "landlock" or "auto"'
	expect_member_error '"sandbox": true' sandbox "must be a string"
}

@test "--check names the backend, and for Landlock the kernel's ABI" {
	write_policy "{$CMDS}"
	run sbx --check
	assert_line "sandbox: bwrap (user namespaces)"
	write_policy "{$CMDS, \"sandbox\": \"auto\"}"
	run sbx --check
	assert_line "sandbox: auto (bwrap where it can set up, else landlock)"
	assert_line --regexp '^  landlock   ABI [0-9]+ here'
	assert_line "socket families under landlock: none; no other"
}

@test "network must be a string or an object" {
	expect_member_error '"network": false' network 'must be "none", "host" or an object'
}

@test "allowUnixSockets must be a boolean" {
	expect_member_error '"allowUnixSockets": null' allowUnixSockets "must be a boolean"
}

@test "limits must be an object" {
	expect_member_error '"limits": 5' limits "must be an object"
}

@test "a limit must be a number" {
	expect_member_error '"limits": {"timeoutMs": "5000"}' limits.timeoutMs "must be an integer"
}

@test "audit must be a string" {
	expect_member_error '"audit": null' audit "must be a string"
}

@test "a duplicate top-level key is refused" {
	write_policy "{$CMDS, \"audit\": \"stderr\", \"audit\": \"$AUDIT\"}"
	run sbx --check
	assert_failure 125
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^sbexec: $SBEXEC_POLICY: .*duplicate key \"audit\"$"
}

@test "a duplicate command name is refused" {
	expect_policy_error '{"commands": {"ffprobe": "/usr/bin/ffprobe", "ffprobe": "/bin/true"}}' \
		commands 'duplicate key "ffprobe"'
}

@test "a duplicate key in limits is refused" {
	expect_member_error '"limits": {"timeoutMs": 5, "timeoutMs": 6}' limits 'duplicate key "timeoutMs"'
}

@test "limits.timeoutMs of 0 is out of range" {
	expect_member_error '"limits": {"timeoutMs": 0}' limits.timeoutMs \
		"must be an integer between 1 and 86400000"
}

@test "limits.timeoutMs above one day is out of range" {
	expect_member_error '"limits": {"timeoutMs": 86400001}' limits.timeoutMs \
		"must be an integer between 1 and 86400000"
}

@test "a negative limit is out of range" {
	expect_member_error '"limits": {"killAfterMs": -1}' limits.killAfterMs \
		"must be an integer between 0 and 86400000"
}

@test "a limit that is not an integer (1.5) is refused" {
	expect_member_error '"limits": {"timeoutMs": 1.5}' limits.timeoutMs \
		"must be an integer between 1 and 86400000"
}

@test "policy numbers are JSON's: 8.64e7 and 25e2 are integers, read exactly; 01 and 1. are not JSON" {
	write_policy "{$CMDS, \"limits\": {\"timeoutMs\": 8.64e7, \"killAfterMs\": 25e2}}"
	run sbx --check
	assert_success
	assert_line "  timeout          86400000 ms, then KILL after 2500 ms"
	write_policy "{$CMDS, \"limits\": {\"timeoutMs\": 86399999.0, \"killAfterMs\": 0.0001e4}}"
	run sbx --check
	assert_success
	assert_line "  timeout          86399999 ms, then KILL after 1 ms"
	local n
	for n in 01 1. -01 .5; do
		write_policy "{$CMDS, \"limits\": {\"timeoutMs\": $n}}"
		run sbx --check
		assert_failure 125
		assert_output "sbexec: $SBEXEC_POLICY: line 1: invalid JSON"
	done
}

@test "the limits at their bounds are accepted" {
	write_policy "{$CMDS, \"limits\": {\"timeoutMs\": 86400000, \"killAfterMs\": 0}}"
	run sbx --check
	assert_success
	assert_line "  timeout          86400000 ms, then KILL after 0 ms"
}

@test "a policy without commands is refused" {
	expect_policy_error '{"audit": "stderr"}' commands "required"
}

@test "an empty commands object is refused" {
	expect_policy_error '{"commands": {}}' commands "must name at least one command"
}

@test "a command name with a slash is refused" {
	expect_policy_error '{"commands": {"a/b": "/usr/bin/ffprobe"}}' commands.a/b \
		'a command name matches [A-Za-z0-9._+-]+ and is not "sbexec"'
}

@test "the command name sbexec is refused" {
	expect_policy_error '{"commands": {"sbexec": "/usr/bin/ffprobe"}}' commands.sbexec \
		'a command name matches [A-Za-z0-9._+-]+ and is not "sbexec"'
}

@test "a relative command path is refused" {
	expect_policy_error '{"commands": {"ffprobe": "usr/bin/ffprobe"}}' commands.ffprobe \
		"must be an absolute path"
}

@test "a relative binShell is refused" {
	expect_member_error '"binShell": "bash"' binShell "must be an absolute path"
}

@test "binShell /usr/bin/fish is refused: not a shell sbexec quotes for" {
	expect_member_error '"binShell": "/usr/bin/fish"' binShell \
		"must be one of sh, bash, dash, zsh, ksh"
}

@test "binShell /bin/busybox is refused: not a shell sbexec quotes for" {
	expect_member_error '"binShell": "/bin/busybox"' binShell \
		"must be one of sh, bash, dash, zsh, ksh"
}

@test "an allowed binShell is the shell the sandbox runs" {
	write_policy "{$CMDS, \"binShell\": \"/bin/bash\"}"
	run sbx -n ffprobe -version
	assert_success
	assert_line --regexp "'--' '/proc/self/fd/[0-9]+' '--sbexec-launch' '[0-9]+' '-' '-' '-' '/bin/bash' '-c' 'exec '"
}

@test "without binShell the command starts directly: no shell runs in the chain" {
	run sbx -n ffprobe -version
	assert_success
	assert_line --regexp "'--' '/proc/self/fd/[0-9]+' '--sbexec-launch' '[0-9]+' '-' '-' '-' '/usr/bin/ffprobe' '-version'\$"
	# A shell in the chain runs what BASH_ENV names: the control.
	printf 'echo shell >"%s/ran"\n' "$W" >"$W/bash_env"
	export BASH_ENV="$W/bash_env"
	write_policy "{$CMDS, \"binShell\": \"/bin/bash\",
	  \"envAllowList\": [\"PATH\", \"BASH_ENV\"],
	  \"filesystem\": {\"allowWrite\": [\".\"]}}"
	run sbx ffprobe -version
	assert_success
	assert_equal "$(cat "$W/ran")" shell
	rm "$W/ran"
	write_policy "{$CMDS, \"envAllowList\": [\"PATH\", \"BASH_ENV\"],
	  \"filesystem\": {\"allowWrite\": [\".\"]}}"
	run sbx ffprobe -version
	assert_success
	[ ! -e "$W/ran" ]
}

@test "a relative bwrap is refused" {
	expect_member_error '"bwrap": "bwrap"' bwrap "must be an absolute path"
}

@test "envAllowList name 1X is refused, naming its index" {
	expect_member_error '"envAllowList": ["PATH", "1X"]' "envAllowList[1]" \
		'"1X" is not a variable name (^[A-Za-z_][A-Za-z0-9_]*$)'
}

@test "envAllowList name A-B is refused, naming its index" {
	expect_member_error '"envAllowList": ["PATH", "A-B"]' "envAllowList[1]" \
		'"A-B" is not a variable name'
}

@test "envAllowList entry FOO=bar is refused, naming its index" {
	expect_member_error '"envAllowList": ["PATH", "FOO=bar"]' "envAllowList[1]" \
		'"FOO=bar" is not a variable name'
}

@test "network bridge is refused" {
	expect_member_error '"network": "bridge"' network 'must be "none", "host" or an object'
}

# DESIGN 11: the allow-list object is a closed schema too.
@test "a network allow-list is checked entry by entry, with key paths" {
	expect_member_error '"network": {"allow": ["a.test"], "ports": [1]}' \
		network.ports "unknown key"
	expect_member_error '"network": {"deny": ["a.test"]}' network \
		"allow: required, with at least one host"
	expect_member_error '"network": {"allow": []}' network \
		"allow: required, with at least one host"
	expect_member_error '"network": {"allow": "a.test"}' network.allow \
		"must be an array"
	expect_member_error '"network": {"allow": ["a.test", 3]}' \
		"network.allow[1]" "must be a string"
	expect_member_error '"network": {"allow": ["Media.test"]}' \
		"network.allow[0]" '"Media.test": a host name has only [a-z0-9.-]'
	expect_member_error '"network": {"allow": ["a.*.test"]}' \
		"network.allow[0]" '"a.*.test": the only wildcard is a leading "*."'
	expect_member_error '"network": {"allow": ["*"]}' \
		"network.allow[0]" '"*": the only wildcard is a leading "*."'
	expect_member_error '"network": {"allow": ["a.test:0"]}' \
		"network.allow[0]" '"a.test:0": the port after'
	expect_member_error '"network": {"allow": ["a.test:65536"]}' \
		"network.allow[0]" '"a.test:65536": the port after'
	expect_member_error '"network": {"allow": ["127.0.0.1"]}' \
		"network.allow[0]" '"127.0.0.1": an IP address, not a name'
	expect_member_error '"network": {"allow": ["a.test"], "deny": ["x..test"]}' \
		"network.deny[0]" '"x..test": an empty label'
	expect_member_error '"network": {"allow": ["a.test"], "allowAddresses": ["10.0.0.1/8"]}' \
		"network.allowAddresses[0]" '"10.0.0.1/8": bits set past the prefix length'
	expect_member_error '"network": {"allow": ["a.test"], "allowAddresses": ["10.0.0.0/33"]}' \
		"network.allowAddresses[0]" '"10.0.0.0/33": not an address'
	expect_member_error '"network": {"allow": ["a.test"], "allowAddresses": ["fd00::/7"]}' \
		"network.allowAddresses[0]" '"fd00::/7": bits set past'
}

@test "--check warns of allowAddresses that re-open the metadata service or everything" {
	write_policy "{$CMDS, \"network\": {\"allow\": [\"a.test\"],
	  \"allowAddresses\": [\"169.254.0.0/16\", \"0.0.0.0/0\", \"10.1.0.0/16\"]}}"
	run sbx --check
	assert_success
	assert_line "warning: network.allowAddresses: covers 169.254.169.254, the cloud metadata service (credentials)"
	assert_line "warning: network.allowAddresses: 0.0.0.0/0 re-allows every private and loopback address in it; list the origins' own prefixes"
	refute_line --partial "10.1.0.0/16 re-allows"
}

@test "--check prints the allow-list, and a command may have its own" {
	write_policy '{"commands": {"ffprobe": {"path": "/usr/bin/ffprobe",
	  "network": {"allow": ["media.test", "*.cdn.test:8443"], "deny": ["x.cdn.test"],
	  "allowAddresses": ["10.20.0.0/16", "fd00::/8"]}},
	  "ffmpeg": "/usr/bin/ffmpeg"}}'
	run sbx --check
	assert_success
	assert_line "network: none (loopback only)"
	assert_line --partial "network: http(s) through sbexec's proxy to these hosts only"
	assert_line "  allow      media.test"
	assert_line "  allow      *.cdn.test:8443 (every name below it, and whatever their front ends serve under any Host header)"
	assert_line "  deny       x.cdn.test (and every allowed name that shares an address with it in the same lookup; at another address, an allowed name's https tunnel can still reach it by its Host header)"
	assert_line "  address    10.20.0.0/16 (otherwise refused as a private address)"
	assert_line "  address    fd00::/8 (otherwise refused as a private address)"
}

@test "a relative audit path is refused" {
	expect_member_error '"audit": "audit.log"' audit \
		'must be "stderr", "syslog", "auto" or an absolute file path'
}

@test "a relative filesystem path is refused" {
	expect_member_error '"filesystem": {"denyRead": ["etc/shadow"]}' "filesystem.denyRead[0]" \
		'"etc/shadow": must be an absolute path, "~/..." or "./..."'
}

@test "a filesystem path with a glob is refused" {
	expect_member_error '"filesystem": {"allowRead": ["/usr", "/etc/*"]}' "filesystem.allowRead[1]" \
		'"/etc/*": glob characters are not supported'
}

@test "a filesystem path with .. is refused" {
	expect_member_error '"filesystem": {"allowWrite": ["./out/../.."]}' "filesystem.allowWrite[0]" \
		'"./out/../..": must not contain ".."'
}

@test "invalid JSON is refused with its line number" {
	write_policy "{
  $CMDS,
  \"network\": none
}"
	expect_file_error "line 3: invalid JSON"
}

@test "trailing garbage after the object is refused" {
	write_policy "{$CMDS}
{}"
	expect_file_error "line 2: invalid JSON"
}

@test "a JSON array at the top level is refused" {
	write_policy "[{$CMDS}]"
	expect_file_error "must be a JSON object"
}

@test "a NUL byte in the policy file is refused" {
	printf '{%s}\0\n' "$CMDS" >"$SBEXEC_POLICY"
	run sbx --check
	assert_failure 125
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^sbexec: $SBEXEC_POLICY: .*contains a NUL byte$"
}

@test "an error at the top level is not printed with an empty key path" {
	write_policy "{$CMDS, \"audit\": \"stderr\", \"audit\": \"stderr\"}"
	run sbx --check
	assert_failure 125
	refute_output --partial "$SBEXEC_POLICY: : "
	printf '{%s}\0\n' "$CMDS" >"$SBEXEC_POLICY"
	run sbx --check
	assert_failure 125
	refute_output --partial "$SBEXEC_POLICY: : "
}

@test "a \\u0000 escape is refused, not used to truncate a key or a string" {
	# Decoded, each would read as "audit", "/etc/shadow" (the ".." unseen)
	# and "/usr/bin/ffprobe".
	for json in \
	    '{"commands": {"ffprobe": "/usr/bin/ffprobe"}, "audit\u0000junk": "stderr"}' \
	    '{"commands": {"ffprobe": "/usr/bin/ffprobe"}, "filesystem": {"denyRead": ["/etc/shadow\u0000/../x"]}}' \
	    '{"commands": {"ffprobe": "/usr/bin/ffprobe\u0000junk"}}'; do
		write_policy "$json"
		run sbx --check
		[ "$status" -eq 125 ] && [ "${#lines[@]}" -eq 1 ] &&
		    [[ $output == "sbexec: $SBEXEC_POLICY: "* ]] ||
			fail "accepted $json: status $status, output: $output"
	done
}

@test "an envAllowList name listed twice is refused" {
	expect_member_error '"envAllowList": ["PATH", "PATH"]' 'envAllowList[1]' '"PATH" is listed twice'
}

@test "an invalid policy stops the command before it runs" {
	write_policy '{"commands": {"sh": "/bin/sh"}, "limits": {"timeoutMs": 0}}'
	run sbx sh -c 'touch ran'
	assert_failure 125
	assert_output "sbexec: $SBEXEC_POLICY: limits.timeoutMs: must be an integer between 1 and 86400000"
	[ ! -e ran ]
}

# ---- DESIGN 1: the policy file ------------------------------------------

@test "a group-writable policy file is refused" {
	chmod 664 "$SBEXEC_POLICY"
	expect_file_error "writable by group or others; refused (chmod go-w $SBEXEC_POLICY)$UMASK_HINT"
}

@test "a world-writable policy file is refused" {
	chmod 646 "$SBEXEC_POLICY"
	expect_file_error "writable by group or others; refused (chmod go-w $SBEXEC_POLICY)$UMASK_HINT"
}

@test "a directory as the policy is refused" {
	mkdir "$T/policy.d"
	run sbx -p "$T/policy.d" --check
	assert_failure 125
	assert_output "sbexec: $T/policy.d: not a regular file"
}

@test "a FIFO as the policy is refused without hanging" {
	mkfifo "$T/policy.fifo"
	run timeout 10 "$SBEXEC" -p "$T/policy.fifo" --check
	assert_failure 125
	assert_output "sbexec: $T/policy.fifo: not a regular file"
}

@test "a policy file larger than 1 MiB is refused" {
	pad_policy $((1024 * 1024 + 1))
	expect_file_error "larger than 1048576 bytes; refused"
}

@test "a policy file of exactly 1 MiB is accepted" {
	pad_policy $((1024 * 1024))
	run sbx --check
	assert_success
	assert_output --partial "$SBEXEC_POLICY: 0 warnings"
}

@test "a policy file owned by another user is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	chown 65534 "$SBEXEC_POLICY"
	expect_file_error "owned by uid 65534, not by root or the invoking user; refused"
}

# Every directory on the way is checked, as sshd's StrictModes and sudo
# do: whoever can write one can put another policy in the file's place.
@test "a policy in a world-writable directory is refused" {
	mkdir -m 777 "$T/shared"
	chmod 777 "$T/shared"
	cp "$SBEXEC_POLICY" "$T/shared/policy.json"
	run sbx -p "$T/shared/policy.json" sh -c 'touch ran'
	assert_failure 125
	assert_output "sbexec: policy $T/shared/policy.json: $T/shared is a directory writable by group or others (chmod go-w, or move the policy); refused$UMASK_HINT"
	[ ! -e ran ]
}

@test "a policy reached through a symlink in a group-writable directory is refused" {
	mkdir "$T/conf" "$T/shared"
	chmod 775 "$T/shared"
	cp "$SBEXEC_POLICY" "$T/conf/policy.json"
	ln -s ../conf "$T/shared/link"
	run sbx -p "$T/shared/link/policy.json" --check
	assert_failure 125
	assert_output --partial "$T/shared is a directory writable by group or others"
	chmod 755 "$T/shared"
	run sbx -p "$T/shared/link/policy.json" --check
	assert_success
}

@test "in a sticky directory, the policy's way must be owned by root or the user" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	mkdir "$T/sticky" "$T/conf"
	chmod 1777 "$T/sticky"
	cp "$SBEXEC_POLICY" "$T/sticky/policy.json"
	cp "$SBEXEC_POLICY" "$T/conf/policy.json"
	run sbx -p "$T/sticky/policy.json" --check
	assert_success
	ln -s ../conf "$T/sticky/link"
	chown -h 65534 "$T/sticky/link"
	run sbx -p "$T/sticky/link/policy.json" --check
	assert_failure 125
	assert_output --partial "$T/sticky/link is owned by another user in a shared directory"
}

@test "a policy in a directory owned by another user is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	mkdir "$T/theirs"
	cp "$SBEXEC_POLICY" "$T/theirs/policy.json"
	chown 65534 "$T/theirs"
	run sbx -p "$T/theirs/policy.json" --check
	assert_failure 125
	assert_output --partial "$T/theirs is a directory owned by another user"
}

@test "a missing policy file names -p and \$SBEXEC_POLICY" {
	export SBEXEC_POLICY="$T/none.json"
	run sbx --check
	assert_failure 125
	assert_output "sbexec: $T/none.json: no policy file; name one with -p FILE or \$SBEXEC_POLICY"
}

@test "-p FILE beats \$SBEXEC_POLICY" {
	cp "$SBEXEC_POLICY" "$T/other.json"
	export SBEXEC_POLICY="$T/none.json"
	run sbx -p "$T/other.json" --check
	assert_success
	assert_line --index 0 --partial "policy $T/other.json (sha256 "
	run sbx --policy="$T/other.json" --check
	assert_success
	assert_line --index 0 --partial "policy $T/other.json (sha256 "
}

@test "without -p or \$SBEXEC_POLICY the policy is /etc/sbexec/policy.json" {
	unset SBEXEC_POLICY
	run sbx --check
	assert_output --partial "/etc/sbexec/policy.json"
	refute_output --partial "$T"
}

# ---- DESIGN 2: defaults --------------------------------------------------

@test "envAllowList replaces the default: [\"LANG\"] passes LANG and drops PATH" {
	write_policy "{$CMDS, \"envAllowList\": [\"LANG\"]}"
	export LANG=C.UTF-8 PATH
	run sbx -n ffprobe
	assert_success
	assert_line "decision: sandbox"
	assert_line "env: LANG JACK_NO_START_SERVER ALSA_CONFIG_PATH"
}

@test "without envAllowList only PATH is passed" {
	export LANG=C.UTF-8 PATH
	run sbx -n ffprobe
	assert_success
	assert_line "env: PATH JACK_NO_START_SERVER ALSA_CONFIG_PATH"
}

@test "envAllowList names unset on the host are skipped" {
	write_policy "{$CMDS, \"envAllowList\": [\"PATH\", \"SBEXEC_TEST_UNSET\", \"LANG\"]}"
	unset SBEXEC_TEST_UNSET
	export LANG=C.UTF-8
	run sbx -n ffprobe
	assert_success
	assert_line "env: PATH LANG JACK_NO_START_SERVER ALSA_CONFIG_PATH"
}

# ---- DESIGN 4: bypass and interpreters -----------------------------------

@test "bypass of a name that is not a command is refused" {
	expect_member_error '"bypass": ["probe"]' "bypass[0]" '"probe" is not a key of commands'
}

@test "shells are never bypassed" {
	for name in sh bash busybox; do refuses_bypass "$name"; done
}

@test "launchers are never bypassed" {
	for name in env xargs find timeout sudo make; do refuses_bypass "$name"; done
}

@test "interpreters are never bypassed" {
	for name in awk sed perl node ruby php vim R; do refuses_bypass "$name"; done
}

@test "interpreters with a version suffix are never bypassed" {
	for name in python3.11 lua5.4 perl5.36; do refuses_bypass "$name"; done
}

@test "a harmless name whose target resolves to bash is never bypassed" {
	ln -s /bin/bash "$T/probe"
	write_policy "{\"commands\": {\"probe\": \"$T/probe\"}, \"bypass\": [\"probe\"]}"
	expect_file_error "bypass[0]: \"probe\" resolves to $(realpath /bin/bash), an interpreter or launcher; it may never be bypassed"
}

@test "a #! script is never bypassed" {
	printf '#!/bin/sh\necho hi\n' >"$T/tool"
	chmod 755 "$T/tool"
	write_policy "{\"commands\": {\"tool\": \"$T/tool\"}, \"bypass\": [\"tool\"]}"
	expect_file_error "bypass[0]: \"tool\" is a #! script; it may never be bypassed"
}

@test "a bypassed command runs directly, without bwrap" {
	write_policy "{\"commands\": {\"true\": \"/bin/true\"}, \"bypass\": [\"true\"]}"
	run sbx -n true a
	assert_success
	assert_line "decision: bypass"
	assert_line "argv: '/bin/true' 'a'"
}

@test "a plain bypass runs and is a loud audit record" {
	write_policy "{\"commands\": {\"true\": \"/bin/true\"}, \"bypass\": [\"true\"],
	  \"audit\": \"$AUDIT\"}"
	run sbx true
	assert_success
	assert_equal "$(audit_field start cmd)" '"true"'
	assert_equal "$(audit_field start mode)" '"bypass"'
	assert_equal "$(audit_field start loud)" true
}

@test "--check warns that bypassing ffprobe trusts argv with ladspa and frei0r" {
	write_policy "{$CMDS, \"bypass\": [\"ffprobe\"], $HIDE_SECRETS}"
	run sbx --check
	assert_success
	assert_line --partial "  ffprobe    /usr/bin/ffprobe  BYPASS: no sandbox"
	assert_line --regexp "^warning: bypass: ffprobe loads shared objects through filters \(ladspa, frei0r\)"
	assert_line "$SBEXEC_POLICY: 1 warning"
}

@test "--check warns about FFREPORT, http_proxy, FFMPEG_DATADIR, HOME and ALSA_CONFIG_PATH in envAllowList" {
	write_policy "{$CMDS, \"envAllowList\": [\"PATH\", \"FFREPORT\", \"http_proxy\", \"FFMPEG_DATADIR\", \"HOME\", \"ALSA_CONFIG_PATH\"],
	  $HIDE_SECRETS}"
	run sbx --check
	assert_success
	for name in FFREPORT http_proxy FFMPEG_DATADIR HOME ALSA_CONFIG_PATH; do
		assert_line --regexp "^warning: envAllowList: $name .*; remove it from envAllowList$"
	done
	assert_line "$SBEXEC_POLICY: 5 warnings"
}

# ---- the decision ----------------------------------------------------------

@test "a name not in commands is denied with 126 and a deny record" {
	run sbx nope -version
	assert_failure 126
	assert_output "sbexec: nope: not a command of the policy $SBEXEC_POLICY; denied"
	assert_equal "$(audit_field deny cmd)" '"nope"'
	assert_equal "$(audit_field deny reason)" '"not a command of the policy"'
}

@test "a bash symlink to sbexec, bash not in the policy, runs nothing" {
	ln -s "$SBEXEC" "$BIN/bash"
	run "$BIN/bash" -c 'touch pwned'
	assert_failure 126
	assert_output "sbexec: bash: not a command of the policy $SBEXEC_POLICY; denied"
	[ ! -e pwned ]
	assert_equal "$(audit_field deny cmd)" '"bash"'
	refute grep -q '"type":"start"' "$AUDIT"
}

# ---- --check ---------------------------------------------------------------

@test "--check summarises a valid policy with 0 warnings" {
	mkdir "$T/secret"
	write_policy "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\", \"ffmpeg\": \"/usr/bin/ffmpeg\"},
	  \"filesystem\": {\"denyRead\": [\"$T/secret\", $SECRETS], \"allowWrite\": [\".\"]}}"
	run sbx --check
	assert_success
	assert_line "  ffprobe    /usr/bin/ffprobe"
	assert_line "  ffmpeg     /usr/bin/ffmpeg"
	assert_line "  hidden     $(realpath "$T/secret")"
	assert_line "  writable   $(pwd -P)"
	assert_line "network: none (loopback only)"
	assert_line "$SBEXEC_POLICY: 0 warnings"
}

@test "--check notes a path that does not exist" {
	write_policy "{$CMDS, \"filesystem\": {\"denyRead\": [\"/nonexistent/sbexec-test\"]}}"
	run sbx --check
	assert_success
	assert_line "  hidden     /nonexistent/sbexec-test (does not exist; skipped)"
}

# ---- DESIGN 7 and the options ----------------------------------------------

@test "-h prints the usage with the exit status table" {
	for opt in -h --help; do
		run sbx "$opt"
		assert_success
		assert_line --index 0 --partial "usage: sbexec [-p FILE]"
		assert_line "Exit status:"
		assert_line --regexp "^  124 +timed out$"
		assert_line --regexp "^  125 +sbexec failed: usage, invalid or unsafe policy"
		assert_line --regexp "^  126 +denied by policy"
		assert_line --regexp "^  127 +the target does not exist$"
		assert_line --regexp "^  128\+N +the command was killed by signal N$"
	done
}

@test "-V prints the version, debian/changelog's, and the commit it was built from" {
	local v
	v=$(sed -n '1s/^sbexec (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
	[ -n "$v" ]
	for opt in -V --version; do
		run sbx "$opt"
		assert_success
		assert_output --regexp "^sbexec ${v//./\\.} \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$"
	done
}

@test "an unknown option is a usage error" {
	run sbx --frobnicate ffprobe
	assert_failure 125
	assert_line --index 0 "sbexec: unknown option or missing argument"
	assert_line --index 1 --partial "usage: sbexec"
}

@test "options: a value after = or a space or joined, short ones grouped; no abbreviation, no value where none is taken; the first word that is no option is the command" {
	local p=$SBEXEC_POLICY opt
	export SBEXEC_POLICY=/nonexistent/policy.json
	for opt in "-p $p" "-p$p" "--policy $p" "--policy=$p"; do
		# shellcheck disable=SC2086
		run sbx $opt -n ffprobe -version
		assert_success
		assert_line "decision: sandbox"
	done
	run sbx -np "$p" ffprobe -version
	assert_success
	assert_line "decision: sandbox"
	for opt in --pol --dry --help=1 --version=x; do
		run sbx "$opt" "$p" -n ffprobe
		assert_failure 125
		assert_line --index 0 "sbexec: unknown option or missing argument"
	done
	run sbx -p
	assert_failure 125
	assert_line --index 0 "sbexec: unknown option or missing argument"
	# After the command, -hide_banner is the command's (as sbexec's own
	# it would be -h and print the usage): nothing is permuted.
	run sbx -p "$p" ffprobe -hide_banner -version
	assert_success
	assert_output --partial "ffprobe version"
	refute_output --partial "usage: sbexec"
	run sbx -p "$p" -- -n
	assert_failure 126
	assert_line --index 0 --partial "sbexec: -n: not a command of the policy"
}

@test "sbexec without a command is a usage error" {
	run sbx
	assert_failure 125
	assert_line --index 0 "sbexec: no command given"
	assert_line --index 1 --partial "usage: sbexec"
}

# ---- DESIGN 2: path forms ------------------------------------------------

@test "~/x is the passwd home of the invoking user, not \$HOME" {
	local home
	home=$(getent passwd "$(id -u)" | cut -d: -f6)
	[ -d "$home" ] && [ -w "$home" ] || skip "the passwd home $home is not a writable directory"
	HOME_DIR=$(mktemp -d "$home/.sbexec-test.XXXXXX")
	mkdir -p "$T/fakehome/${HOME_DIR##*/}"
	export HOME="$T/fakehome"
	write_policy "{$CMDS, \"filesystem\": {\"denyRead\": [\"~/${HOME_DIR##*/}\"], \"allowWrite\": [\"~\"]}}"
	run sbx --check
	assert_success
	assert_line "  hidden     $(realpath "$HOME_DIR")"
	assert_line "  writable   $(realpath "$home")"
	refute_output --partial fakehome
}

@test "./x is the working directory at invocation" {
	mkdir out
	write_policy "{$CMDS, \"filesystem\": {\"allowWrite\": [\"./out\"], \"denyWrite\": [\".\"]}}"
	run sbx --check
	assert_success
	assert_line "  writable   $(pwd -P)/out"
	assert_line "  read-only  $(pwd -P)"
}
