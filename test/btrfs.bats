#!/usr/bin/env bats
# Issue 29, finding 2: btrfs makes, snapshots and flips subvolumes by
# ioctls on a directory opened read-only, which Landlock does not
# mediate. A snapshot of a subvolume is a copy of everything in it, the
# files a policy hides among them, at a path no rule names. On a real
# btrfs (a loop file), as root and as a user owning the subvolume, each
# ioctl is first shown working without sbexec, then refused (EPERM: not
# on the filter's allow-list) through sbexec on bwrap and Landlock; and
# under bwrap a writable subvolume, whose hidden file lives inside the
# allowWrite, is the same attack through a writable mount. The ioctls
# are made by native code the attack loads (helper.bash), the
# test/probe_btrfs.c payload.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D MNT LOOPFILE
	[ "$(id -u)" -eq 0 ] || skip "a loop mount needs root (the tests run as $(id -un))"
	command -v mkfs.btrfs >/dev/null ||
		skip "no mkfs.btrfs (btrfs-progs) here"
	grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null ||
		skip "this kernel has no btrfs"
	D=$(mktemp -d /tmp/sbxbtrfs.XXXXXX)
	chmod 755 "$D"
	MNT="$D/mnt"
	LOOPFILE="$D/btrfs.img"
	mkdir -p "$MNT"
	truncate -s 300M "$LOOPFILE"
	mkfs.btrfs -q "$LOOPFILE" >/dev/null
	mount -o loop "$LOOPFILE" "$MNT" ||
		skip "no loop mount of a btrfs image here"
	chmod 755 "$MNT"
	build_probes probe_btrfs
	# The payload's executable tree (execPaths), which a user can read.
	export XDIR="$D/x"
	mkdir -m 755 "$XDIR"
	cp "$BATS_FILE_TMPDIR/payload.so" "$XDIR/"
	test_user
	local who
	for who in root user; do
		btrfs -q subvolume create "$MNT/vol-$who"
		mkdir "$MNT/dst-$who"
		echo "secret-$who" >"$MNT/vol-$who/.env"
		chmod 600 "$MNT/vol-$who/.env"
		[ "$who" = root ] || chown -R "$CUID:$CGID" \
			"$MNT/vol-$who" "$MNT/dst-$who"
	done
}

teardown_file() {
	[ -n "${MNT:-}" ] || return 0
	umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null || true
	rm -rf "$D"
}

setup() {
	N=0
}

# The names made by a test go (a snapshot is a subvolume: rm -rf takes
# it on btrfs as root only with user_subvol_rm_allowed; btrfs does).
teardown() {
	local v
	for v in "$MNT"/dst-*/* "$MNT"/vol-*/s*; do
		[ -d "$v" ] || continue
		btrfs property set "$v" ro false 2>/dev/null || true
		btrfs -q subvolume delete "$v" 2>/dev/null || rm -rf "$v"
	done
	for v in "$MNT"/vol-*; do
		btrfs property set "$v" ro false
	done
}

# work WHO: a fresh directory owned by WHO: the cwd of the attack (W),
# the policy and its audit file.
work() {
	local dir="$D/t$BATS_TEST_NUMBER-$((N += 1))"
	W="$dir/work"
	POL="$dir/policy.json"
	AUDIT="$dir/audit.jsonl"
	mkdir -p "$W"
	: >"$AUDIT"
	chmod 600 "$AUDIT"
	[ "$1" = root ] || chown -R "$CUID:$CGID" "$dir"
}

# use BACKEND [WRITE]: the policy: the cwd and WRITE writable, the
# subvolume's .env hidden, the payload's tree executable.
use() {
	printf '%s\n' "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\"},
	  \"sandbox\": \"$1\", \"audit\": \"$AUDIT\",
	  \"execPaths\": [\"$XDIR\"],
	  \"filesystem\": {\"allowWrite\": [\".\" ${2:+, \"$2\"}],
	  \"denyRead\": [\"$MNT/vol-$WHO/.env\"]}}" >"$POL"
	chmod 644 "$POL"
}

ff_direct() { as "$WHO" ffmpeg "$@"; }
ff_sbexec() { as "$WHO" "$SBEXEC" -p "$POL" ffmpeg "$@"; }

# probe WHO FF ARGS: the payload's answers, run by FF as WHO.
probe() {
	local WHO=$1 ff=$2
	shift 2
	(cd "$W" && attack "$ff" "$@")
}

# The three ioctls and the read of the copy, into DIR.
ioctls() {
	local who=$1 dir=$2 name=$3
	echo "snap:$MNT/vol-$who:$dir:$name" "read:$dir/$name/.env" \
		"subvol:$dir:n$name" "ro:$MNT/vol-$who"
}

# refused MODE WHO: through sbexec on MODE, the policy writing only the
# cwd, each ioctl is EPERM and no copy exists.
refused() {
	local WHO=$2
	work "$WHO"
	use "$1"
	run probe "$WHO" ff_sbexec $(ioctls "$WHO" "$MNT/dst-$WHO" s1)
	assert_success
	assert_output "snap=EPERM
read=ENOENT
subvol=EPERM
ro=EPERM"
	[ ! -e "$MNT/dst-$WHO/s1" ] && [ ! -e "$MNT/dst-$WHO/ns1" ]
	run btrfs property get "$MNT/vol-$WHO" ro
	assert_output "ro=false"
}

# writable MODE WHO: the allowWrite is the subvolume itself, its .env
# hidden: a snapshot inside it is still EPERM. (The Landlock backend
# refuses such a policy: it cannot hide a path inside a writable tree.)
writable() {
	local WHO=$2 vol="$MNT/vol-$2"
	work "$WHO"
	use "$1" "$vol"
	run probe "$WHO" ff_sbexec "snap:$vol:$vol:s2" "read:$vol/s2/.env" \
		"read:$vol/.env"
	assert_success
	assert_line "snap=EPERM"
	assert_line "read=ENOENT"
	refute_line "read=secret-$WHO"
	[ ! -e "$vol/s2" ]
}

@test "control: without sbexec, root and a user snapshot their subvolume, read its hidden file in the copy, make a subvolume, set one read-only" {
	local who
	for who in root user; do
		work "$who"
		run probe "$who" ff_direct $(ioctls "$who" "$MNT/dst-$who" s1)
		assert_success
		assert_output "snap=OK
read=secret-$who
subvol=OK
ro=OK"
		run btrfs property get "$MNT/vol-$who" ro
		assert_output "ro=true"
		# ... and inside the subvolume itself, the writable case.
		run probe "$who" ff_direct "rw:$MNT/vol-$who" \
			"snap:$MNT/vol-$who:$MNT/vol-$who:s2" \
			"read:$MNT/vol-$who/s2/.env"
		assert_output "rw=OK
snap=OK
read=secret-$who"
	done
}

@test "bwrap, root: snapshot, new subvolume and read-only flag are EPERM" { refused bwrap root; }
@test "bwrap, user owning the subvolume: snapshot, new subvolume and read-only flag are EPERM" { refused bwrap user; }

@test "landlock, root: snapshot, new subvolume and read-only flag are EPERM" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	refused landlock root
}

@test "landlock, user owning the subvolume: snapshot, new subvolume and read-only flag are EPERM" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	refused landlock user
}

@test "bwrap, a writable subvolume: no snapshot of it, its hidden file stays hidden (root, user)" {
	writable bwrap root
	writable bwrap user
}
