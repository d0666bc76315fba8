#!/usr/bin/env bats
# Links in writable places, from one run to the next (sbexec.json(5),
# "Paths"): what a run may write is decided from paths no earlier run
# could have changed. The attack: with "allowWrite": [".", "./out"], one
# run replaces ./out with a link to a directory outside (TARGET, standing
# for /etc/cron.d when root runs, ~/.local/bin for a user), and the next
# run, same policy and cwd, writes into out/. Each behaviour is shown
# first without sbexec (the control), then through it on both backends
# (bwrap, and Landlock on the host), as root and as an unprivileged user.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D
	D=$(mktemp -d /tmp/sbxlinks.XXXXXX)
	chmod 755 "$D"
	test_user
}

teardown_file() {
	rm -rf "$D"
}

setup() {
	common_setup
	sample
}

# at WHO MODE: a fresh work directory of WHO's (the cwd) holding out/ and
# the sample, TARGET beside it (WHO's own, outside every allowWrite),
# the audit file, and a policy for MODE writing "." and "./out".
at() {
	WHO=$1 MODE=$2
	DIR="$D/$WHO.$BATS_TEST_NUMBER.$MODE"
	W="$DIR/work" TARGET="$DIR/target" AUDIT="$DIR/audit.jsonl"
	rm -rf "$DIR"
	mkdir -p "$W/out" "$TARGET"
	cp "$BATS_FILE_TMPDIR/sample.mp4" "$W/"
	: >"$AUDIT"
	chmod 600 "$AUDIT"
	[ "$WHO" = root ] || [ "$(id -u)" -ne 0 ] ||
		chown -R "$CUID:$CGID" "$DIR"
	link_policy '"allowWrite": [".", "./out"]'
	cd "$W"
}

# link_policy FS: commands ffmpeg and sh, $MODE's backend, filesystem FS.
link_policy() {
	printf '%s\n' "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\",
	  \"sh\": $(sh_programs)}, \"audit\": \"$AUDIT\",
	  \"sandbox\": \"$MODE\", \"filesystem\": {$1}}" >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
}

# through NAME ARGS: NAME as $WHO through sbexec, or without it when
# $MODE is direct.
through() {
	local name=$1
	shift
	if [ "$MODE" = direct ]; then
		as "$WHO" "$name" "$@"
	else
		as "$WHO" "$SBEXEC" -p "$DIR/policy.json" "$name" "$@"
	fi
}

# write_out: the second run, ffmpeg writing out/copy.mp4.
write_out() {
	through ffmpeg -nostdin -v error -y -i sample.mp4 -c copy out/copy.mp4
}

# swap: the first run, ./out replaced with a link to TARGET.
swap() {
	through sh -c "mv out out.orig && ln -s '$TARGET' out"
}

# left_out: the rule went out of the run, loudly; TARGET is untouched.
left_out() {
	assert_failure
	assert_output --partial "sbexec: ffmpeg: filesystem.allowWrite \"./out\": $W/out passes through a symbolic link in a writable place"
	assert_output --partial "left out of this run"
	[ ! -e "$TARGET/copy.mp4" ]
	run audit_get start 'r["masked"]'
	assert_output "[\"$W/out\"]"
}

# ------------------------------------------------------ the controls

control() {
	needs_who "$1"
	at "$1" direct
	run swap
	assert_success
	run write_out
	assert_success
	[ -s "$TARGET/copy.mp4" ]
}

@test "control: without sbexec, root's second run writes through the swapped ./out into TARGET" {
	control root
}

@test "control: without sbexec, a user's second run writes through the swapped ./out into TARGET" {
	control user
}

# ------------------------------------------------------- the attack

# swapped WHO: the first run swaps ./out for a link to TARGET, the second
# writes into out/. bwrap binds the nested allowWrite onto itself, so
# the swap fails (EBUSY) and the second run writes into the real out/;
# Landlock has no mounts, the swap succeeds, and the second run leaves
# the rule out.
swapped() {
	local mode
	needs_who "$1"
	for mode in $(host_modes); do
		at "$1" "$mode"
		run swap
		if [ "$mode" = bwrap ]; then
			assert_failure
			assert_output --partial "Device or resource busy"
			[ -d out ] && [ ! -L out ]
			run write_out
			assert_success
			[ -s out/copy.mp4 ]
			[ ! -e "$TARGET/copy.mp4" ]
			continue
		fi
		assert_success
		[ -L out ]
		run write_out
		left_out
	done
}

@test "allowWrite [\".\", \"./out\"]: a run that swaps ./out for a link gives the next no write to its target, as root (bwrap, landlock)" {
	swapped root
}

@test "allowWrite [\".\", \"./out\"]: a run that swaps ./out for a link gives the next no write to its target, as a user (bwrap, landlock)" {
	swapped user
}

# planted WHO: ./out absent at the first run (the rule skipped), which
# leaves a link there; the second run leaves the rule out, loudly.
planted() {
	local mode
	needs_who "$1"
	for mode in $(host_modes); do
		at "$1" "$mode"
		rmdir out
		run through sh -c "ln -s '$TARGET' out"
		assert_success
		run write_out
		left_out
		run as "$WHO" "$SBEXEC" -p "$DIR/policy.json" -n ffmpeg
		assert_success
		assert_line "masked: $W/out (a link in a writable place: the rule is left out of the run)"
		assert_line --partial "sbexec: ffmpeg: filesystem.allowWrite \"./out\""
	done
}

@test "a link one run leaves at a nested allowWrite is left out of the next run, loudly, as root (bwrap, landlock)" {
	planted root
}

@test "a link one run leaves at a nested allowWrite is left out of the next run, loudly, as a user (bwrap, landlock)" {
	planted user
}

# elsewhere WHO: policy.example.json's "./out" alone. A run from W
# (W/out writable) leaves W/out/out -> TARGET; a run from W/out, whose own
# allowWrite is W/out/out and which cannot write W/out itself, leaves the
# rule out all the same.
elsewhere() {
	local mode
	needs_who "$1"
	for mode in $(host_modes); do
		at "$1" "$mode"
		link_policy '"allowWrite": ["./out"]'
		run through sh -c "ln -s '$TARGET' out/out"
		assert_success
		cd out
		run through ffmpeg -nostdin -v error -y -i "$W/sample.mp4" \
			-c copy out/copy.mp4
		assert_failure
		assert_output --partial "sbexec: ffmpeg: filesystem.allowWrite \"./out\": $W/out/out passes through a symbolic link in a writable place"
		[ ! -e "$TARGET/copy.mp4" ]
		run audit_get start 'r["masked"]'
		assert_output "[\"$W/out/out\"]"
	done
}

@test "a link a run from another directory leaves at allowWrite \"./out\" is left out, as root (bwrap, landlock)" {
	elsewhere root
}

@test "a link a run from another directory leaves at allowWrite \"./out\" is left out, as a user (bwrap, landlock)" {
	elsewhere user
}

# A link no run of the user could have made or re-pointed is followed:
# one in a directory of root's, for a user.
@test "an allowWrite through a link the user cannot change is followed, as a user" {
	local mode
	needs_who user
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a directory of root's"
	for mode in $(host_modes); do
		at user "$mode"
		ln -s "$TARGET" "$D/ro.$BATS_TEST_NUMBER.$mode"
		link_policy "\"allowWrite\": [\"$D/ro.$BATS_TEST_NUMBER.$mode\"]"
		run through ffmpeg -nostdin -v error -y -i sample.mp4 -c copy \
			"$D/ro.$BATS_TEST_NUMBER.$mode/copy.mp4"
		assert_success
		refute_output --partial "left out"
		[ -s "$TARGET/copy.mp4" ]
		run audit_get start 'r["masked"]'
		assert_output "[]"
	done
}

# A link on the way, not at the end: ./sub -> TARGET, allowWrite
# "./sub/out" (TARGET/out existing).
@test "an allowWrite through a linked directory in a writable place is left out, loudly" {
	local mode
	for mode in $(host_modes); do
		at root "$mode"
		mkdir "$TARGET/out"
		ln -s "$TARGET" sub
		link_policy '"allowWrite": [".", "./sub/out"]'
		run through ffmpeg -nostdin -v error -y -i sample.mp4 -c copy \
			sub/out/copy.mp4
		assert_failure
		assert_output --partial "filesystem.allowWrite \"./sub/out\": $W/sub/out passes through a symbolic link in a writable place"
		[ ! -e "$TARGET/out/copy.mp4" ]
		run audit_get start 'r["masked"]'
		assert_output "[\"$W/sub/out\"]"
	done
}

# A nested allowWrite is a mount of its own: renaming or removing it
# fails whatever is inside it.
@test "a nested allowWrite cannot be renamed or removed under bwrap" {
	at root bwrap
	local attack
	for attack in 'mv out gone' 'rm -rf out' 'mv -T out.x out'; do
		mkdir -p out.x
		run through sh -c "$attack"
		assert_failure
		[ -d out ] && [ ! -L out ]
	done
	run through sh -c 'echo ok >out/f && mv out/f out/g && cat out/g'
	assert_success
	assert_output ok
}

@test "--check warns of an allowWrite through a link in a writable place" {
	at root bwrap
	rmdir out
	ln -s "$TARGET" out
	run "$SBEXEC" -p "$DIR/policy.json" --check
	assert_output --partial "warning: filesystem.allowWrite: $W/out passes through a symbolic link inside a writable path"
	assert_output --partial "left out"
}
