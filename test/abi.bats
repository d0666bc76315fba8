#!/usr/bin/env bats
# The Landlock backend on every Landlock ABI (DESIGN 9). Below ABI 3 the
# ruleset cannot refuse truncation (no LANDLOCK_ACCESS_FS_TRUNCATE), and
# at ABI 1 it refuses every rename and link across directories (no
# LANDLOCK_ACCESS_FS_REFER). The seccomp filter closes the first; the
# start record and --check name what each costs. Every test asserts what
# the running kernel's ABI gives: on this host's kernel and in the VM
# rig's 6.1 (ABI 2), test/vm.bats. Each claim is shown working without
# sbexec first, with the probe as the attacker's native code, as root
# and as an unprivileged user on a file DAC lets that user write.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D PROBE
	D=$(mktemp -d /tmp/sbxabi.XXXXXX)
	chmod 755 "$D"
	PROBE="$D/probe_syscalls"
	gcc -Wall -Wextra -Werror -o "$PROBE" "$BATS_TEST_DIRNAME/probe_syscalls.c"
	test_user
}

teardown_file() {
	rm -rf "$D"
}

setup() {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	ABI=$(landlock_abi)
	common_setup
}

# make_dir WHO: $R, WHO's: a read-only file ro.txt beside out/, the one
# writable directory, which holds rw.txt and a/f for a rename to b/.
make_dir() {
	R="$D/$BATS_TEST_NUMBER.$1"
	mkdir -p "$R/out/a" "$R/out/b"
	echo keep >"$R/ro.txt"
	echo keep >"$R/out/rw.txt"
	echo f >"$R/out/a/f"
	chmod 644 "$R/ro.txt" "$R/out/rw.txt"
	[ "$1" = root ] || [ "$(id -u)" -ne 0 ] || chown -R "$CUID:$CGID" "$R"
	chown 0:0 "$R"
	cd "$R/out"
	cat >"$D/$BATS_TEST_NUMBER.$1.json" <<-EOF
		{ "commands": { "probe": "$PROBE", "ffmpeg": "/usr/bin/ffmpeg" },
		  "sandbox": "landlock", "audit": "$R/audit.jsonl",
		  "filesystem": { "allowWrite": ["$R/out"] } }
	EOF
	chmod 644 "$D/$BATS_TEST_NUMBER.$1.json"
	: >"$R/audit.jsonl"
	chmod 666 "$R/audit.jsonl"
	POL="$D/$BATS_TEST_NUMBER.$1.json"
}

# probe WHO NAME:ARG: the probe through sbexec, as WHO.
probe() {
	local who=$1
	shift
	as "$who" "$SBEXEC" -p "$POL" probe "$@"
}

@test "a file the policy only reads is not emptied, on this kernel's ABI: truncate(2), O_TRUNC with O_RDONLY and with access mode 3, as root and as a user" {
	local want=EACCES
	[ "$ABI" -ge 3 ] || want=EPERM	# the seccomp filter's
	for who in root user; do
		for how in truncate trunc_rdonly trunc_mode3; do
			make_dir "$who"
			run -0 as "$who" "$PROBE" "$how:$R/ro.txt"
			assert_output "$how=OK"
			[ ! -s "$R/ro.txt" ]
			make_dir "$who"
			run -0 probe "$who" "$how:$R/ro.txt"
			assert_output "$how=$want"
			assert_equal "$(cat "$R/ro.txt")" keep
		done
	done
}

@test "inside allowWrite, what this kernel's ABI costs: truncation by path below 3, renames across directories at 1; ffmpeg -y and ftruncate work on every ABI" {
	local trunc=OK across=OK
	[ "$ABI" -ge 3 ] || trunc=EPERM
	[ "$ABI" -ge 2 ] || across=EXDEV
	for who in root user; do
		make_dir "$who"
		run -0 probe "$who" "truncate:$R/out/rw.txt" \
			"trunc_rdonly:$R/out/rw.txt" "ftruncate:$R/out/rw.txt" \
			"rename_across:$R/out"
		assert_output "truncate=$trunc
trunc_rdonly=$trunc
ftruncate=OK
rename_across=$across"
		[ ! -s "$R/out/rw.txt" ]
		make_dir "$who"
		echo old >"$R/out/o.wav"
		[ "$who" = root ] || [ "$(id -u)" -ne 0 ] || chown "$CUID:$CGID" "$R/out/o.wav"
		run -0 as "$who" "$SBEXEC" -p "$POL" ffmpeg -nostdin -v error -y \
			-f lavfi -i anullsrc -t 0.1 "$R/out/o.wav"
		[ "$(head -c 4 "$R/out/o.wav")" = RIFF ]
	done
}

@test "the start record names the ABI and what it costs; --check says so too" {
	make_dir root
	run -0 probe root "open:$R/ro.txt"
	AUDIT="$R/audit.jsonl" run audit_get start 'r["landlockAbi"]'
	assert_output "$ABI"
	AUDIT="$R/audit.jsonl" run audit_get start 'r["landlockCost"]'
	if [ "$ABI" -ge 3 ]; then
		assert_output null
	else
		assert_output --partial "Landlock ABI $ABI: truncate(2) and open(O_TRUNC) without write access are refused (EPERM)"
	fi
	[ "$ABI" -ge 2 ] || assert_output --partial "rename and link across directories (EXDEV)"
	run -0 "$SBEXEC" --check -p "$POL"
	assert_line --partial "landlock   ABI $ABI here"
	if [ "$ABI" -ge 3 ]; then
		refute_output --partial "costs here"
	else
		assert_line --partial "landlock   costs here: Landlock ABI $ABI: truncate(2)"
	fi
}
