#!/usr/bin/env bats
# "sandbox": "auto" (DESIGN 9) at bwrap's own cost: the real bwrap starts
# at once, and only a bwrap that could not set up (nothing ran) gives way
# to the Landlock backend; what it said is kept out of the command's
# output, and the one start record names the backend that ran. Each
# test counts bwrap's runs through a wrapper named as the policy's bwrap,
# and runs as root and as an unprivileged user. "Where bwrap cannot" is
# test/in_container.c, a seccomp filter that refuses user namespaces as
# Docker's default profile does.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D
	D=$(mktemp -d /tmp/sbxauto.XXXXXX)
	chmod 755 "$D"
	build_in_container "$D/in_container"
	test_user
}

teardown_file() {
	rm -rf "$D"
}

setup() {
	[ "$(landlock_abi)" -ge 1 ] ||
		skip "the kernel has no Landlock"
	common_setup
}

# make_dir WHO: a directory of WHO's (the cwd, its policy, its audit)
# and a wrapper bwrap that counts its runs in $R/count, then execs the
# real one after "$@" of its own: BEFORE (shell) runs first.
make_dir() {
	R="$D/$BATS_TEST_NUMBER.$1"
	mkdir -p "$R/work"
	: >"$R/count"
	chmod 666 "$R/count"
	cat >"$R/bwrap" <<-EOF
		#!/bin/sh
		echo run >>"$R/count"
		${BEFORE:-}
		exec /usr/bin/bwrap "\$@"
	EOF
	chmod 755 "$R/bwrap"
	[ "$1" = root ] || [ "$(id -u)" -ne 0 ] || chown "$CUID:$CGID" "$R/work"
	cd "$R/work"
	cat >policy.json <<-EOF
		{ "commands": { "sh": $(sh_programs),
		  "ffprobe": "/usr/bin/ffprobe" },
		  "sandbox": "auto", "bwrap": "$R/bwrap",
		  "audit": "$R/work/audit.jsonl" ${2:-} }
	EOF
	chmod 644 policy.json
}

runs() { wc -l <"$R/count"; }

# records TYPE: how many records of TYPE the run's audit holds.
records() { grep -c "\"type\":\"$1\"" "$R/work/audit.jsonl" || true; }

start_get() {
	AUDIT="$R/work/audit.jsonl" audit_get start "$1"
}

SCRIPT='echo out; echo err >&2'

@test "auto where bwrap works: bwrap runs once per call, as root and as a user" {
	for who in root user; do
		make_dir "$who"
		run -0 --separate-stderr as "$who" "$SBEXEC" -p policy.json sh -c "$SCRIPT"
		assert_output out
		assert_equal "$stderr" err
		assert_equal "$(runs)" 1
		assert_equal "$(start_get 'r["backend"]')" '"bwrap"'
		assert_equal "$(records start)" 1
		assert_equal "$(records end)" 1
	done
}

@test "auto where bwrap cannot set up: one bwrap, then Landlock, and nothing bwrap said reaches the output, as root and as a user" {
	for who in root user; do
		make_dir "$who"
		# The positive control: bwrap says why, there.
		run -1 as "$who" "$D/in_container" /usr/bin/bwrap --unshare-all \
			--ro-bind / / --proc /proc --dev /dev /bin/true
		assert_output --partial "namespace"
		run -0 --separate-stderr as "$who" "$D/in_container" "$SBEXEC" \
			-p policy.json sh -c "$SCRIPT"
		assert_output out
		assert_equal "$stderr" err
		assert_equal "$(runs)" 1
		assert_equal "$(start_get 'r["backend"]')" '"landlock"'
		run start_get 'r["reasons"]'
		assert_output --partial "auto fell back to Landlock: bwrap cannot set up a sandbox here (bwrap: "
		assert_output --partial "namespace"
		assert_equal "$(records start)" 1
		assert_equal "$(records end)" 1
	done
}

@test "auto falls back with stdout and stderr one pipe (2>&1), and on a terminal, bwrap's words unseen" {
	make_dir root
	run -0 sh -c '"$1" "$2" -p policy.json sh -c "$3" 2>&1' sh \
		"$D/in_container" "$SBEXEC" "$SCRIPT"
	assert_output "out
err"
	# script's stdin stays open (compat.bats says why)
	script -qec "$D/in_container $SBEXEC -p policy.json sh -c 'tty; echo err >&2'" \
		/dev/null < <(sleep 5) >tty.out
	run cat tty.out
	assert_output --regexp '^/dev/pts/[0-9]+'
	assert_output --partial err
	refute_output --partial bwrap
	assert_equal "$(runs)" 2
	assert_equal "$(records start)" 2
	[ "$(grep -c '"backend":"landlock"' audit.jsonl)" -eq 2 ]
}

@test "auto with no output cap and stderr a file: bwrap on nothing decides first, as before, its words unseen" {
	make_dir root ', "limits": { "maxOutputBytes": 0 }'
	run -0 sh -c '"$1" "$2" -p policy.json sh -c "$3" 2>err.txt' sh \
		"$D/in_container" "$SBEXEC" "$SCRIPT"
	assert_output out
	assert_equal "$(cat err.txt)" err
	assert_equal "$(runs)" 1
	assert_equal "$(start_get 'r["backend"]')" '"landlock"'
	make_dir user ', "limits": { "maxOutputBytes": 0 }'
	run -0 as user sh -c '"$1" -p policy.json sh -c "$2" 2>err.txt' sh \
		"$SBEXEC" "$SCRIPT"
	assert_equal "$(runs)" 2	# the preflight, then the run
	assert_equal "$(start_get 'r["backend"]')" '"bwrap"'
}

@test "a bwrap slow to set up that reaches the timeout is a run of bwrap: 124, no fallback, one start record" {
	BEFORE='sleep 3' make_dir root ', "limits": { "timeoutMs": 300 }'
	run -124 "$SBEXEC" -p policy.json sh -c "$SCRIPT"
	refute_output --partial out
	assert_equal "$(runs)" 1
	assert_equal "$(start_get 'r["backend"]')" '"bwrap"'
	assert_equal "$(records start)" 1
	AUDIT=audit.jsonl run audit_get end 'r["timedOut"]'
	assert_output true
}

@test "a bwrap that fails after setting up is no fallback: the command's own status, its stderr shown" {
	make_dir root
	run -3 --separate-stderr "$SBEXEC" -p policy.json sh -c 'echo bye >&2; exit 3'
	assert_equal "$stderr" bye
	assert_equal "$(runs)" 1
	assert_equal "$(start_get 'r["backend"]')" '"bwrap"'
}

@test "auto with a network allow-list where bwrap cannot set up: 125, the reason, an error record and no start" {
	make_dir root ', "network": { "allow": ["media.test"] }'
	run -125 --separate-stderr "$D/in_container" "$SBEXEC" -p policy.json sh -c "$SCRIPT"
	assert_output ""
	assert_equal "$stderr" "$(printf '%s\n' "$stderr" | grep '^sbexec: network: an allow-list needs the bwrap backend')"
	[[ "$stderr" == *"bwrap cannot set up a sandbox here (bwrap: "* ]]
	assert_equal "$(records start)" 0
	assert_equal "$(records error)" 1
}
