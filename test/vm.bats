#!/usr/bin/env bats
# The VM rig (issue 21, item 1): test/vm/run boots Debian's own kernels,
# bookworm's 6.1 (Landlock ABI 2) and a 6.12 (ABI 6), with the host's
# tree as a read-only root under a tmpfs overlay and cgroup v2 mounted,
# and runs one command inside, as root or as a user. First the rig
# itself: the kernel, its Landlock ABI, the status and output that come
# back, the time limit, a sysctl that makes the kernel itself refuse
# user namespaces (so that bwrap cannot set up and "auto" falls back for
# real). Then the suites inside each kernel on both backends: the escape
# battery, the sandbox claims, the drop-in suite and the census.
#
# Each inner run's TAP is kept in build/vm/results/ with its time in
# results/times; a failing test prints the inner tests that failed, with
# their output. VM_KERNELS="6.1", VM_SUITES="escape compat" and
# VM_BACKENDS="bwrap" narrow the runs (the tests of the others skip).
# Without KVM the guests run under emulation (test/vm/run --check says
# which), twenty to thirty times slower: a suite takes ten minutes to
# more than half an hour. The proofs always run: abi.bats in both
# kernels, cgroup.bats in 6.1, and the census in both (one census run
# covers both backends and the simulated container, as root and as a
# user: every path, device, process, IPC object, capability, socket
# family and syscall the command reaches). The other suites run only
# when VM_SUITES names them (their twelve runs would pass CI's time
# under emulation). VM_SUITE_TIMEOUT bounds each (3600 s).

load helper
bats_require_minimum_version 1.5.0

VMRUN="$TOP/test/vm/run"
CACHE="${VM_CACHE:-$TOP/build/vm}"
# A user of no passwd entry: the rig needs none.
VUID=4242
VGID=4243

# Where no guest can run, every test skips with the reason (NO_VM):
# bats 1.8 has no skip in setup_file.
setup_file() {
	export NO_VM= ACCEL
	if ! ACCEL=$("$VMRUN" --check 2>&1); then
		NO_VM=${ACCEL#vm: }
	elif [ ! -x "$SBEXEC" ]; then
		NO_VM="no $SBEXEC (make sbexec)"
	elif ! "$TOP/test/vm/fetch" 6.1 6.12 >/dev/null 2>"$BATS_FILE_TMPDIR/fetch"; then
		NO_VM="no kernels: $(tail -n 1 "$BATS_FILE_TMPDIR/fetch")"
	fi
	[ -z "$NO_VM" ] || return 0
	echo "# vm: accelerator $ACCEL" >&3
	mkdir -p "$CACHE/results"
	: >"$CACHE/results/times"
}

setup() {
	[ -z "$NO_VM" ] || skip "$NO_VM"
}

teardown_file() {
	[ ! -s "$CACHE/results/times" ] || sed 's/^/# time: /' "$CACHE/results/times" >&3
}

# vm KERNEL ARGS...: test/vm/run -k KERNEL ARGS..., if VM_KERNELS has it.
# The emulated guest now and then gives the rig no status (125, a line
# of the rig's own on stderr, "vm: ..."), which says nothing of what the
# test asks: that attempt is shown in the TAP output with what the rig
# said, and the command run once more. A 125 of sbexec's in the guest
# says "sbexec: ...", never "vm: ", and is the answer.
vm() {
	local k=$1 out="$BATS_TEST_TMPDIR/vm.out" err="$BATS_TEST_TMPDIR/vm.err"
	local rc try
	shift
	case " ${VM_KERNELS:-6.1 6.12} " in
	*" $k "*) ;;
	*) skip "VM_KERNELS leaves out $k" ;;
	esac
	for try in 1 2; do
		"$VMRUN" -k "$k" "$@" >"$out" 2>"$err"
		rc=$?
		[ "$rc" -eq 125 ] && [ "$try" -eq 1 ] &&
			grep -q '^vm: ' "$err" || break
		sed "s/^/# vm: attempt 1 on $k failed, once more: /" "$err" >&3
	done
	cat "$out"
	cat "$err" >&2
	return "$rc"
}

# ------------------------------------------------------------ the rig

# kernel_is KERNEL ABI: the guest runs the cached package's kernel, with
# that Landlock ABI (the syscall's own answer) and cgroup v2 mounted.
kernel_is() {
	run --separate-stderr vm "$1" -- sh -c '
		uname -r
		python3 -c "import ctypes
print(ctypes.CDLL(None).syscall(444, None, 0, 1))"
		stat -fc %T /sys/fs/cgroup
		grep -w /sys/fs/cgroup /proc/mounts'
	assert_success
	assert_line --index 0 "$(cat "$CACHE/$1/release")"
	assert_line --index 0 --regexp "^${1//./\\.}\\.[0-9]+"
	assert_line --index 1 "$2"
	assert_line --index 2 cgroup2fs
	assert_line --index 3 --regexp '^cgroup2 /sys/fs/cgroup cgroup2 .*nsdelegate'
}

# as_root KERNEL: a root command's stdout, stderr and status come back
# apart, as they were; and its death by a signal as 128+N.
as_root() {
	run --separate-stderr vm "$1" -- sh -c 'id -u; id -g; echo to stderr >&2
		printf "no newline"; exit 7'
	assert_equal "$status" 7
	assert_equal "$output" "$(printf '0\n0\nno newline')"
	assert_equal "$stderr" "to stderr"
	run vm "$1" -- sh -c 'kill -TERM $$'
	assert_equal "$status" 143
	run -127 vm "$1" -- no-such-command
	assert_equal "$status" 127
}

# as_user KERNEL: the same as uid VUID, gid VGID, which writes into the
# shared working directory: the host sees the file, with that owner.
as_user() {
	local d
	# Not below bats's own 0700 directories, which the guest sees too.
	d=$(mktemp -d /tmp/sbxvm.XXXXXX)
	chmod 777 "$d"
	run --separate-stderr vm "$1" -u "$VUID:$VGID" -C "$d" -- sh -c '
		id -u; id -g; id -G; pwd; echo "$HOME"; echo made >file
		echo to stderr >&2; exit 3'
	# A failure of the rig (125) says why on stderr: show it.
	[ "$status" -eq 3 ] || printf 'vm said: %s\n' "$stderr"
	assert_equal "$status" 3
	assert_equal "$output" "$(printf '%s\n' "$VUID" "$VGID" "$VGID" "$d" /tmp)"
	assert_equal "$stderr" "to stderr"
	assert_equal "$(cat "$d/file")" made
	[ "$(id -u)" -ne 0 ] || assert_equal "$(stat -c %u:%g "$d/file")" "$VUID:$VGID"
	rm -rf "$d"
}

# no_userns KERNEL: with user.max_user_namespaces=0 the kernel refuses
# bwrap its user namespace, as root and as a user; sbexec's "auto" then
# runs the command under Landlock and its start record says so and why.
no_userns() {
	run vm "$1" -s user.max_user_namespaces=0 -- sh -c '
		mkdir -p /etc/sbexec-vm
		echo "{\"commands\": {\"sh\": {\"path\": \"/bin/sh\",
		  \"programs\": [\"/usr\"]}}, \"sandbox\": \"auto\",
		  \"audit\": \"stderr\"}" >/etc/sbexec-vm/policy.json
		cd /tmp
		for who in root user; do
			as=
			[ $who = root ] || as="setpriv --reuid='"$VUID"' --regid='"$VGID"' --clear-groups"
			$as bwrap --unshare-user --ro-bind / / true 2>&1
			echo "bwrap $who: $?"
			$as "$0" -p /etc/sbexec-vm/policy.json sh -c "echo ran as \$(id -u)" 2>&1
			echo "sbexec $who: $?"
		done' "$SBEXEC"
	assert_success
	assert_line "bwrap root: 1"
	assert_line "bwrap user: 1"
	assert_line --partial "max_*_namespaces exceeded"
	assert_line "sbexec root: 0"
	assert_line "sbexec user: 0"
	assert_line "ran as 0"
	assert_line "ran as $VUID"
	assert_equal "$(grep -c '"type":"start".*"backend":"landlock"' <<<"$output")" 2
	assert_output --partial "auto fell back to Landlock: bwrap cannot set up"
}

@test "6.1: the guest runs bookworm's kernel, Landlock ABI 2, cgroup v2 mounted" {
	kernel_is 6.1 2
}

@test "6.12: the guest runs Debian's 6.12 kernel, Landlock ABI 6, cgroup v2 mounted" {
	kernel_is 6.12 6
}

@test "6.1: a command as root: its stdout, stderr and exit status come back" {
	as_root 6.1
}

@test "6.12: a command as root: its stdout, stderr and exit status come back" {
	as_root 6.12
}

@test "6.1: a command as a user, in a shared directory it writes" {
	as_user 6.1
}

@test "6.12: a command as a user, in a shared directory it writes" {
	as_user 6.12
}

@test "a guest that outlives its time limit is killed: exit 124, and why" {
	run --separate-stderr vm 6.1 -t 2 -- sleep 600
	assert_equal "$status" 124
	[[ $stderr == "vm: timed out after 2s"* ]]
}

@test "6.1: user namespaces refused by the kernel: bwrap cannot, \"auto\" falls back to Landlock" {
	no_userns 6.1
}

@test "6.12: user namespaces refused by the kernel: bwrap cannot, \"auto\" falls back to Landlock" {
	no_userns 6.12
}

# --------------------------------------------------------- the suites

# suite KERNEL SUITE BACKEND: test/SUITE.bats inside KERNEL, on BACKEND
# (landlock: SBEXEC_BACKEND=landlock, as make test runs its second
# pass); its TAP kept in results/KERNEL-SUITE-BACKEND.tap, its time and
# counts in results/times; on failure the inner tests that failed.
suite() {
	local k=$1 s=$2 b=$3 tap="$CACHE/results/$1-$2-$3.tap" env=
	[ -n "${VM_SUITES+set}" ] ||
		skip "12 suite runs would pass CI's time (accelerator here: ${ACCEL%% *}): VM_SUITES=\"escape sandbox compat\" runs them"
	case " ${VM_SUITES:-escape sandbox compat} " in
	*" $s "*) ;;
	*) skip "VM_SUITES leaves out $s" ;;
	esac
	case " ${VM_BACKENDS:-bwrap landlock} " in
	*" $b "*) ;;
	*) skip "VM_BACKENDS leaves out $b" ;;
	esac
	[ "$b" = bwrap ] || env=SBEXEC_BACKEND=landlock
	inner "$k" "$s" "$tap" "$b backend" $env
}

# inner KERNEL SUITE TAP LABEL [VAR=VALUE]: test/SUITE.bats inside
# KERNEL, its TAP in TAP, its time and counts in results/times; on
# failure the inner tests that failed.
inner() {
	local k=$1 s=$2 tap=$3 label=$4 rc=0 start
	shift 4
	start=$(date +%s)
	vm "$k" -t "${VM_SUITE_TIMEOUT:-3600}" -- env SBEXEC="$SBEXEC" "$@" \
		bats --tap "$TOP/test/$s.bats" >"$tap" 2>&1 || rc=$?
	printf '%s\t%s\t%s\t%d s\texit %d\t%s\n' "$k" "$s" "$label" \
		$(($(date +%s) - start)) "$rc" "$(tap_counts "$tap")" \
		>>"$CACHE/results/times"
	[ "$rc" -ne 0 ] || return 0
	echo "# test/$s.bats in the $k guest, $label: exit $rc; the failures:"
	awk '/^not ok /{p=1; print; next} /^ok /{p=0} p' "$tap"
	tail -n 5 "$tap"
	return 1
}

# proof KERNEL SUITE: test/SUITE.bats inside KERNEL as it chooses its own
# backends, run whatever the accelerator: the suites that prove what
# only another kernel can show (abi.bats on Landlock ABI 2 and 6,
# cgroup.bats on cgroup v2), two to eight minutes each when emulated.
proof() {
	inner "$1" "$2" "$CACHE/results/$1-$2.tap" "its own backends"
}

@test "6.1: abi.bats in the guest: Landlock ABI 2, the truncation the ruleset cannot refuse refused by the filter" { proof 6.1 abi; }
@test "6.12: abi.bats in the guest: Landlock ABI 6" { proof 6.12 abi; }
@test "6.1: cgroup.bats in the guest: cgroup v2, the run cloned into its cgroup" { proof 6.1 cgroup; }
@test "6.1: census.bats in the guest: what each backend reaches, as root and as a user, on Landlock ABI 2" { proof 6.1 census; }
@test "6.12: census.bats in the guest: what each backend reaches, as root and as a user, on Landlock ABI 6" { proof 6.12 census; }

# tap_counts TAP: "P passed, F failed, S skipped".
tap_counts() {
	awk '/^not ok /{f++; next} /^ok .*# skip/{k++; next} /^ok /{p++}
		END {printf "%d passed, %d failed, %d skipped", p, f, k}' "$1"
}

@test "6.1: escape.bats in the guest, bwrap backend" { suite 6.1 escape bwrap; }
@test "6.1: escape.bats in the guest, Landlock backend" { suite 6.1 escape landlock; }
@test "6.1: sandbox.bats in the guest, bwrap backend" { suite 6.1 sandbox bwrap; }
@test "6.1: sandbox.bats in the guest, Landlock backend" { suite 6.1 sandbox landlock; }
@test "6.1: compat.bats in the guest, bwrap backend" { suite 6.1 compat bwrap; }
@test "6.1: compat.bats in the guest, Landlock backend" { suite 6.1 compat landlock; }
@test "6.12: escape.bats in the guest, bwrap backend" { suite 6.12 escape bwrap; }
@test "6.12: escape.bats in the guest, Landlock backend" { suite 6.12 escape landlock; }
@test "6.12: sandbox.bats in the guest, bwrap backend" { suite 6.12 sandbox bwrap; }
@test "6.12: sandbox.bats in the guest, Landlock backend" { suite 6.12 sandbox landlock; }
@test "6.12: compat.bats in the guest, bwrap backend" { suite 6.12 compat bwrap; }
@test "6.12: compat.bats in the guest, Landlock backend" { suite 6.12 compat landlock; }
