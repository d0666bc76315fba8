#!/usr/bin/env bats
# Every program the policy names is trusted as the policy is (DESIGN 12,
# issue 18's escape 2): bwrap, binShell, each command's path and what it
# resolves to. One sandboxed run could otherwise replace a program that
# lies inside allowWrite, and the next run would execute it: bwrap and a
# bypassed command outside the sandbox, as root when root runs sbexec.
# Each attack is first shown possible: under a policy that does not name
# the program, the sandboxed sh writes a program of its own at that
# place. Then the policy that names it is refused, by a run and by
# --check, and nothing runs. And --check's advice on what root reads.

load helper

setup() {
	common_setup
}

teardown() {
	if [ -n "${MADE_SECRETS:-}" ]; then
		rm -rf "$MADE_SECRETS"
	fi
}

# plants PATH: the premise. The sandboxed sh, under the policy as it is,
# replaces whatever lies at PATH with an executable script that would
# leave the file planted-ran in the work directory if it ever ran.
plants() {
	run sbx sh -c "rm -f '$1' && printf '#!/bin/sh\ntouch $W/planted-ran\n' >'$1' && chmod 755 '$1'"
	assert_success
	assert_equal "$(sed -n 2p "$1")" "touch $W/planted-ran"
	[ -x "$1" ] && [ ! -L "$1" ]
}

# refused KEY WHY: a run and --check both exit 125 with the one line
# "sbexec: POLICY: KEY: WHY"; nothing ran, the planted program included,
# and the audit holds no start record.
refused() {
	rm -f "$AUDIT" ran
	run sbx sh -c 'touch ran'
	assert_failure 125
	assert_output "sbexec: $SBEXEC_POLICY: $1: $2"
	[ ! -e ran ] && [ ! -e planted-ran ]
	run grep -qs '"type":"start"' "$AUDIT"
	assert_failure
	run sbx --check
	assert_failure 125
	assert_output "sbexec: $SBEXEC_POLICY: $1: $2"
}

# inside PROGRAM RULE [OWNER]: why PROGRAM is refused when it lies inside
# the allowWrite entry RULE (of command OWNER's own policy).
inside() {
	printf '%s lies inside %sfilesystem.allowWrite "%s", where a sandboxed command could replace it; move it out of every allowWrite' \
		"$1" "${3:+commands.$3.}" "$2"
}

WRITE_CWD=', "filesystem": {"allowWrite": ["."]}'

# ------------------------------------------------ programs in allowWrite

@test "a bwrap inside allowWrite is refused: run and --check exit 125 naming the key bwrap" {
	policy "$WRITE_CWD"
	plants "$W/bwrap"
	policy ", \"bwrap\": \"$W/bwrap\" $WRITE_CWD"
	refused bwrap "$(inside "$W/bwrap" .)"
}

@test "a binShell inside allowWrite is refused: run and --check exit 125 naming the key binShell" {
	policy "$WRITE_CWD"
	plants "$W/sh"
	policy ", \"binShell\": \"$W/sh\" $WRITE_CWD"
	refused binShell "$(inside "$W/sh" .)"
}

@test "a command's path inside allowWrite is refused, naming commands.NAME" {
	policy "$WRITE_CWD"
	plants "$W/tool"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"tool\": \"$W/tool\"},
	  \"audit\": \"$AUDIT\" $WRITE_CWD}"
	refused commands.tool "$(inside "$W/tool" .)"
}

# Another command's own allowWrite counts as much as the top level's: a
# run of that command replaces the program.
@test "a command's path inside another command's own allowWrite is refused, naming commands.NAME.path" {
	mkdir out
	local sh='"sh": {"path": "/bin/sh", "filesystem": {"allowWrite": ["./out"]},
	  "programs": ["/usr"]}'
	write_policy "{\"commands\": {$sh}, \"audit\": \"$AUDIT\"}"
	plants "$W/out/ffmpeg"
	write_policy "{\"commands\": {$sh, \"ffmpeg\": {\"path\": \"$W/out/ffmpeg\"}},
	  \"audit\": \"$AUDIT\"}"
	refused commands.ffmpeg.path "$(inside "$W/out/ffmpeg" ./out sh)"
}

# The link is what the sandbox replaces: its target, /usr/bin/ffprobe,
# is sound, and the policy is refused all the same.
@test "a command's path that is a symlink inside allowWrite to /usr/bin/ffprobe is refused" {
	ln -s /usr/bin/ffprobe ffprobe
	policy "$WRITE_CWD"
	plants "$W/ffprobe"
	ln -sfn /usr/bin/ffprobe ffprobe
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"ffprobe\": \"$W/ffprobe\"},
	  \"audit\": \"$AUDIT\" $WRITE_CWD}"
	refused commands.ffprobe "$(inside "$W/ffprobe" .)"
}

# A bypassed command runs outside the sandbox: its target, reached
# through a link that itself lies outside allowWrite, is the program
# (here the binary the administrator put there, not yet replaced: a #!
# script may never be bypassed anyway).
@test "a bypassed command whose target lies inside allowWrite is refused, naming its target" {
	policy "$WRITE_CWD"
	plants "$W/tool-real"
	cp /usr/bin/ffprobe "$W/tool-real"
	mkdir "$T/links"
	ln -s "$W/tool-real" "$T/links/tool"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"tool\": \"$T/links/tool\"},
	  \"bypass\": [\"tool\"], \"audit\": \"$AUDIT\" $WRITE_CWD}"
	refused commands.tool "$T/links/tool resolves to $W/tool-real, inside filesystem.allowWrite \".\", where a sandboxed command could replace it; move it out of every allowWrite"
}

@test "a program reached through a link to a directory inside allowWrite is refused, naming its target" {
	mkdir bin
	policy "$WRITE_CWD"
	plants "$W/bin/ffprobe"
	ln -s "$W/bin" "$T/bin-link"
	policy ", \"bwrap\": \"$T/bin-link/ffprobe\", \"filesystem\": {\"allowWrite\": [\"./bin\"]}"
	refused bwrap "$T/bin-link/ffprobe resolves to $W/bin/ffprobe, inside filesystem.allowWrite \"./bin\", where a sandboxed command could replace it; move it out of every allowWrite"
}

# Neither the path nor its target is inside, but a link on the way is,
# and the command could point it elsewhere for the next run.
@test "a program reached through a symlink inside allowWrite is refused, naming the link" {
	ln -s /usr/bin bin-link
	policy "$WRITE_CWD"
	run sbx sh -c 'ln -sfn /tmp bin-link'
	assert_success
	assert_equal "$(readlink bin-link)" /tmp
	ln -sfn /usr/bin bin-link
	mkdir "$T/links"
	ln -s "$W/bin-link" "$T/links/bin"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"ffprobe\": \"$T/links/bin/ffprobe\"},
	  \"audit\": \"$AUDIT\" $WRITE_CWD}"
	refused commands.ffprobe "$T/links/bin/ffprobe passes through $W/bin-link, inside filesystem.allowWrite \".\", where a sandboxed command could replace it; move it out of every allowWrite"
}

# Nothing exists there yet, and the sandbox may create it.
@test "a program that does not exist yet inside allowWrite is refused" {
	policy "$WRITE_CWD"
	run sbx sh -c 'mkdir new'
	assert_success
	plants "$W/new/bwrap"
	rm -r new
	policy ", \"bwrap\": \"$W/new/bwrap\" $WRITE_CWD"
	refused bwrap "$(inside "$W/new/bwrap" .)"
}

# ---------------------------------------- the walk, as for the policy file

@test "a program in a group-writable directory is refused" {
	mkdir -m 775 "$T/shared"
	chmod 775 "$T/shared"
	cp /usr/bin/ffprobe "$T/shared/ffprobe"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"ffprobe\": \"$T/shared/ffprobe\"},
	  \"audit\": \"$AUDIT\"}"
	refused commands.ffprobe "$T/shared/ffprobe: $T/shared is a directory writable by group or others (chmod go-w, or move the program); refused"
	chmod 755 "$T/shared"
	run sbx ffprobe -version
	assert_success
}

@test "a program writable by group or others is refused" {
	mkdir "$T/progs"
	cp /usr/bin/ffprobe "$T/progs/ffprobe"
	chmod 757 "$T/progs/ffprobe"
	policy ", \"bwrap\": \"$T/progs/ffprobe\""
	refused bwrap "$T/progs/ffprobe: $T/progs/ffprobe is writable by group or others (chmod go-w); refused"
}

@test "a program owned by another user is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	mkdir "$T/progs"
	cp /bin/sh "$T/progs/sh"
	chown 65534 "$T/progs/sh"
	policy ", \"binShell\": \"$T/progs/sh\""
	refused binShell "$T/progs/sh: $T/progs/sh is owned by uid 65534, not by root or the invoking user; refused"
}

@test "a program in a directory owned by another user is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown"
	mkdir "$T/theirs"
	cp /usr/bin/ffprobe "$T/theirs/tool"
	chown 65534 "$T/theirs"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"tool\": \"$T/theirs/tool\"},
	  \"audit\": \"$AUDIT\"}"
	refused commands.tool "$T/theirs/tool: $T/theirs is a directory owned by another user; refused"
}

# Anyone can create a name in /tmp; a name missing elsewhere can only be
# created by whoever owns its (checked) directory, and runs as 127.
@test "a missing program is refused in a shared directory, and is 127 elsewhere" {
	mkdir -m 1777 "$T/sticky"
	chmod 1777 "$T/sticky"
	write_policy "{\"commands\": {\"sh\": $(sh_programs), \"ghost\": \"$T/sticky/ghost\"},
	  \"audit\": \"$AUDIT\"}"
	refused commands.ghost "$T/sticky/ghost: $T/sticky/ghost does not exist, in a shared directory where another user could create it; refused"
	write_policy "{\"commands\": {\"ghost\": \"$T/ghost\"}, \"audit\": \"$AUDIT\"}"
	run sbx --check
	assert_success
	run -127 sbx ghost
}

@test "--check names every program refused, one line each" {
	mkdir -m 775 "$T/shared"
	chmod 775 "$T/shared"
	policy ", \"bwrap\": \"$W/bwrap\", \"binShell\": \"$T/shared/sh\" $WRITE_CWD"
	run sbx --check
	assert_failure 125
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 "sbexec: $SBEXEC_POLICY: bwrap: $(inside "$W/bwrap" .)"
	assert_line --index 1 --partial "sbexec: $SBEXEC_POLICY: binShell: $T/shared/sh: $T/shared is a directory writable by group or others"
}

# ------------------------------------------------------ what root reads

# make_secret: /run/secrets with a token in it, made for the test when
# the host has none (and removed after); root only.
make_secret() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to create /run/secrets"
	if [ ! -e /run/secrets ]; then
		mkdir -m 700 /run/secrets
		MADE_SECRETS=/run/secrets
	fi
	[ -w /run/secrets ] || skip "/run/secrets is not writable here"
	TOKEN_FILE=$(mktemp /run/secrets/sbexec-test.XXXXXX)
	[ -n "${MADE_SECRETS:-}" ] || MADE_SECRETS=$TOKEN_FILE
	echo "token-$$" >"$TOKEN_FILE"
}

@test "--check advises hiding /run/secrets when it exists and the command can read it" {
	make_secret
	run sbx sh -c "cat $TOKEN_FILE"
	assert_success
	assert_output "token-$$"
	run sbx --check
	assert_success
	assert_line 'warning: filesystem.denyRead: /run/secrets (Docker secrets, Kubernetes service-account tokens) exists here and the command can read it; add "/run/secrets" to denyRead'
	assert_line --partial 'warning: filesystem.denyRead: /var/run/secrets ('
	policy ', "filesystem": {"denyRead": ["/run/secrets"]}'
	run sbx sh -c "cat $TOKEN_FILE"
	refute_output --partial "token-$$"
	run sbx --check
	assert_success
	refute_output --partial "/run/secrets ("
}

@test "a secret place shown again by allowRead inside it is still advised" {
	make_secret
	policy ", \"filesystem\": {\"denyRead\": [\"/run/secrets\"], \"allowRead\": [\"$TOKEN_FILE\"]}"
	run sbx --check
	assert_success
	assert_line --partial 'warning: filesystem.denyRead: /run/secrets ('
}

@test "the example policy hides every secret place: --check gives no advice" {
	make_secret
	sed "s|\"audit\": \"auto\"|\"audit\": \"$AUDIT\"|" \
		"$TOP/policy.example.json" >"$SBEXEC_POLICY"
	chmod 644 "$SBEXEC_POLICY"
	run sbx --check
	assert_success
	refute_output --partial "warning: filesystem.denyRead"
	refute_output --partial "warning: ffmpeg: filesystem.denyRead"
	run "$BIN/ffmpeg" -nostdin -v error -f data -i "$TOKEN_FILE" -map 0 \
		-c copy -f data -
	assert_failure
	refute_output --partial "token-$$"
}
