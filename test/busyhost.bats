#!/usr/bin/env bats
# Set-up on a busy host (DESIGN 12): Docker, Kubernetes, automounts and
# logins mount and unmount all the time. A mount the host makes while a
# sandbox is set up must not refuse the run (the host's mounts outside
# the plan are read-only copies, not counted), and one it makes while
# the command runs must not appear inside, least of all writable (the
# sandbox's tree is made private before the command starts). Mounting
# needs root: these tests skip otherwise.

load helper
bats_require_minimum_version 1.5.0

setup() {
	[ "$(id -u)" = 0 ] || skip "mounting on the host needs root"
	common_setup
	PIDS=()
	MOUNTS=()
}

teardown() {
	local m
	kill_pids
	for m in "${MOUNTS[@]}"; do
		umount -l "$m" 2>/dev/null || true
	done
}

# churn DIR: mount and unmount a tmpfs at DIR in a loop, in the
# background, as a busy host does.
churn() {
	mkdir -p "$1"
	MOUNTS+=("$1")
	while :; do
		mount -t tmpfs churn "$1" && umount "$1"
	done 2>/dev/null &
	PIDS+=($!)
}

# shared_dir DIR: DIR bound onto itself and made shared, so that mounts
# below it propagate into every copy, as under /run or /var/lib/docker
# on a systemd host.
shared_dir() {
	mkdir -p "$1/t"
	mount --bind "$1" "$1"
	mount --make-shared "$1"
	MOUNTS+=("$1/t" "$1")
}

@test "a host mounting and unmounting in a loop refuses none of 200 runs" {
	local i refused=0
	churn "$T/churn"
	for i in $(seq 200); do
		sbx sh -c : 2>>"$T/err" || refused=$((refused + 1))
	done
	[ "$refused" -eq 0 ] || fail "$refused of 200 refused: $(sort "$T/err" | uniq -c)"
}

@test "a mount nobody planned inside a writable tree is still refused while the host mounts" {
	churn "$T/churn"
	mkdir "$W/sub"
	cat >"$T/bwrap" <<-EOF
	#!/bin/bash
	A=("\$@")
	for ((E = 0; E < \${#A[@]}; E++)); do [ "\${A[E]}" = -- ] && break; done
	A=("\${A[@]:0:E}" --ro-bind /etc "$W/sub" "\${A[@]:E}")
	exec $(command -v bwrap) "\${A[@]}"
	EOF
	chmod 755 "$T/bwrap"
	policy ", \"bwrap\": \"$T/bwrap\", \"filesystem\": {\"allowWrite\": [\".\"]}"
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "(a mount nobody asked for at $W/sub)"
	[ ! -e ran.txt ]
}

# A recursive bind skips an unbindable mount (mountinfo's optional field
# "unbindable") and everything below it, unless bwrap's recursive
# MS_SLAVE has cleared the flag, as this host's kernel does: sbexec
# takes either, where it expects a bindable one both in the bind of /
# and in the bind of the writable tree.
@test "a host mount inside a writable tree is copied in when bindable, and may be when unbindable: both run" {
	local how
	policy ', "filesystem": {"allowWrite": ["."]}'
	for how in private unbindable; do
		mkdir "$W/$how"
		mount -t tmpfs "$how" "$W/$how"
		MOUNTS+=("$W/$how")
		mount --make-"$how" "$W/$how"
		echo "$how" >"$W/$how/marker"
	done
	run -0 sbx sh -c 'cat private/marker; cat unbindable/marker 2>/dev/null || echo absent'
	assert_line -n 0 private
	assert_line -n 1 --regexp '^(unbindable|absent)$'

}

# The command waits for $T/go, then tries to write into the mount the
# host made meanwhile under the shared directory.
late_mount_write() {
	"$@" sh -c 'while [ ! -e "$0/go" ]; do sleep 0.05; done
		if echo x >"$0/shared/t/planted"; then echo WRITABLE; fi
		ls "$0/shared/t"' "$T" 2>&1 &
	PIDS+=($!)
	sleep 1
	mount -t tmpfs late "$T/shared/t"
	touch "$T/go"
	wait "${PIDS[-1]}" || true
}

@test "a host mount made during the run is writable in bare bwrap, absent through sbexec" {
	shared_dir "$T/shared"
	run late_mount_write bwrap --die-with-parent --unshare-all \
		--unshare-user --disable-userns --cap-drop ALL --ro-bind / / \
		--dev /dev --proc /proc --
	assert_output --partial WRITABLE
	umount "$T/shared/t"
	rm -f "$T/go"
	run late_mount_write sbx
	refute_output --partial WRITABLE
	refute_line planted
	# The host's mount holds nothing the command wrote.
	assert_equal "$(ls -A "$T/shared/t")" ""
}

@test "landlock: a host mount made during the run is not writable either" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	shared_dir "$T/shared"
	policy ', "sandbox": "landlock"'
	run late_mount_write sbx
	refute_output --partial WRITABLE
	assert_equal "$(ls -A "$T/shared/t")" ""
}

# Docker's /var/lib/docker (0710 root) holds each running container's
# overlay, mounted read-write; a user's bwrap cannot remount what it
# cannot reach, so such a mount stays read-write in the sandbox's tree,
# below a directory the command cannot search either.
@test "a read-write host mount below a directory a user cannot search refuses none of that user's runs, and stays out of reach" {
	local d locked
	test_user
	d=$(mktemp -d /tmp/sbxbusy.XXXXXX)
	locked=$(mktemp -d /tmp/sbxlocked.XXXXXX)
	chmod 755 "$d"
	chmod 700 "$locked"
	mkdir "$locked/data" "$d/w"
	mount -t tmpfs locked "$locked/data"
	MOUNTS+=("$locked/data")
	chown "$CUID:$CGID" "$d/w"
	export SBEXEC_POLICY="$d/policy.json" AUDIT="$d/w/audit.jsonl"
	XDIR= policy ', "sandbox": "bwrap"'
	cd "$d/w"
	run setpriv --reuid="$CUID" --regid="$CGID" --clear-groups -- \
		"$SBEXEC" sh -c "echo ran; ls $locked/data"
	assert_equal "$status" 2	# ls's: the run itself went ahead
	assert_line ran
	assert_output --partial "Permission denied"
	# As root the same mount is reachable, and bwrap makes it read-only.
	run "$SBEXEC" sh -c "touch $locked/data/f"
	assert_equal "$status" 1
	assert_output --partial "Read-only file system"
	cd /
	umount "$locked/data"
	rm -rf "$d" "$locked"
}
