#!/usr/bin/env bats
# A real container engine (issue 21, items 2 and 5): this file starts its
# own dockerd (no iptables, no bridge; its data, state and socket in a
# directory of its own under /tmp), imports a Debian bookworm image built
# once by test/container/build-image (cached in build/container/), and
# runs suites inside `docker run` with Docker's default seccomp profile,
# where bwrap cannot set up and "auto" falls back to Landlock for real:
# the drop-in suite, the census and both escape batteries as root, as
# --user 1000 and with --cap-drop ALL --security-opt no-new-privileges
# (see wanted).
# The repository (its static sbexec) is bind-mounted read-only at /src.
# Then issue 29's btrfs subvolume ioctls on a loop btrfs bound in as a
# volume, and the README's CI examples, laid out as the executors lay
# them out.
#
# Each inner run's TAP is kept in build/container/results/; a failing
# test prints the inner tests that failed, with their output.
# CONTAINER_SUITES="compat escape ci" and CONTAINER_MODES="root" narrow
# the runs (the tests of the others skip; ci: the README's examples;
# btrfs: the subvolume ioctls).

load helper
load docker
bats_require_minimum_version 1.5.0

IMAGE=sbexec-test:bookworm
CACHE="$TOP/build/container"

# Where the engine cannot run, every test skips with the reason
# (NO_ENGINE): bats 1.8 has no skip in setup_file.
setup_file() {
	export DK DOCKER DOCKER_HOST DOCKER_CONFIG INNER NO_ENGINE=
	if [ "$(id -u)" -ne 0 ]; then
		NO_ENGINE="dockerd needs root (the tests run as $(id -un))"
	elif ! command -v dockerd >/dev/null; then
		NO_ENGINE="no dockerd (apt-get install docker.io)"
	elif ! command -v debootstrap >/dev/null && [ ! -s "$CACHE/rootfs.tar" ]; then
		NO_ENGINE="no debootstrap to build the image (apt-get install debootstrap)"
	elif [ ! -x "$SBEXEC" ]; then
		NO_ENGINE="no $SBEXEC (make sbexec)"
	fi
	# $SBEXEC as the containers see it (make asan's build is under $TOP too)
	case $SBEXEC in
	"$TOP"/*) INNER=/src/${SBEXEC#"$TOP"/} ;;
	*) NO_ENGINE="$SBEXEC is not in $TOP, which the containers see as /src" ;;
	esac
	[ -z "$NO_ENGINE" ] || return 0
	DOCKER=$(dirname "$(command -v dockerd)")/docker
	[ -x "$DOCKER" ] || DOCKER=docker
	mkdir -p "$CACHE/results"
	: >"$CACHE/results/times"
	if ! start_dockerd; then
		NO_ENGINE="dockerd cannot start here: $(dockerd_says)"
		return 0
	fi
	timed image "$TOP/test/container/build-image" "$CACHE/rootfs.tar"
	timed import "$DOCKER" import "$CACHE/rootfs.tar" "$IMAGE" >/dev/null
}

setup() {
	[ -z "$NO_ENGINE" ] || skip "$NO_ENGINE"
}

teardown() {
	btrfs_done
}

teardown_file() {
	stop_dockerd
	[ ! -s "$CACHE/results/times" ] || sed 's/^/# time: /' "$CACHE/results/times" >&3
}

# --------------------------------------------------------- the suites

# mode_flags MODE: docker run's flags for MODE.
mode_flags() {
	case $1 in
	root) ;;
	user) echo --user 1000:1000 ;;
	nnp) echo --cap-drop ALL --security-opt no-new-privileges ;;
	esac
}

# in_docker MODE CMD...: CMD in a fresh container of the image, as MODE
# says, no network, a tmpfs /tmp (bats' directories), the repository at
# /src read-only, Docker's default seccomp profile; the array RUN_FLAGS
# adds flags of docker run. The client gives up after 30 minutes (the
# container is then removed at the end of the file).
in_docker() {
	local mode=$1
	shift
	# shellcheck disable=SC2046
	timeout 1800 "$DOCKER" run --rm --network none \
		--tmpfs /tmp:exec,mode=1777 -v "$TOP:/src:ro" -w /tmp \
		$(mode_flags "$mode") "${RUN_FLAGS[@]}" "$IMAGE" "$@"
}

# backend_env SUITE: how SUITE is told it runs in a real container.
# helper.bash's SBEXEC_IN_CONTAINER (proposed): "auto" in the policy,
# Landlock's expectations, and no test/in_container.c around sbexec.
# Without it, SBEXEC_BACKEND=landlock: the simulation runs inside the
# real container, its filter on top of Docker's. escape2.bats and the
# census choose their backends themselves (a policy naming "sandbox"
# twice would be refused).
backend_env() {
	case $1 in
	escape2) echo "-e SBEXEC_ENGINE=Docker"; return 0 ;;
	census) echo "-e CENSUS_ENGINE=Docker"; return 0 ;;
	esac
	if grep -q SBEXEC_IN_CONTAINER "$TOP/test/helper.bash"; then
		echo "-e SBEXEC_IN_CONTAINER=1 -e SBEXEC_BACKEND=auto"
	else
		echo "-e SBEXEC_BACKEND=landlock"
	fi
	echo "-e SBEXEC_ENGINE=Docker"
}

# wanted SUITE MODE: skip unless CONTAINER_SUITES and CONTAINER_MODES
# (default: compat, census, escape, escape2, btrfs, ci; every mode) name
# them.
# Each knows it is in an engine: the census (CENSUS_ENGINE) takes its
# controls from the host's run and adds what the engine itself refuses
# or masks to what it expects; escape.bats (SBEXEC_ENGINE) skips each
# filter test whose call Docker's profile already refuses without
# sbexec; escape2.bats runs its Landlock half only, and says each
# control the engine already refuses.
wanted() {
	case " ${CONTAINER_SUITES:-compat census escape escape2 btrfs ci} " in
	*" $1 "*) ;;
	*) [ -z "${CONTAINER_SUITES:-}" ] ||
		skip "CONTAINER_SUITES leaves out $1"
	   skip "$1.bats: its controls assume a host without Docker's seccomp profile (CONTAINER_SUITES=$1 runs it)" ;;
	esac
	case " ${CONTAINER_MODES:-root user nnp} " in
	*" $2 "*) ;;
	*) skip "CONTAINER_MODES leaves out $2" ;;
	esac
}

# suite SUITE MODE: test/SUITE.bats inside the container; its TAP kept in
# results/SUITE-MODE.tap, its time in results/times; on failure the
# inner tests that failed, with their output.
suite() {
	local suite=$1 mode=$2 tap="$CACHE/results/$1-$2.tap" rc=0
	wanted "$suite" "$mode"
	# shellcheck disable=SC2207
	local RUN_FLAGS=($(backend_env "$suite") -e "SBEXEC=$INNER")
	timed "$suite-$mode" in_docker "$mode" \
		bats --tap "/src/test/$suite.bats" >"$tap" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || return 0
	echo "# $suite.bats in Docker ($mode): exit $rc; the failures:"
	awk '/^not ok /{p=1; print; next} /^ok /{p=0} p' "$tap"
	return 1
}

# ----------------------------------------------------------- the engine

@test "in a container of this engine bwrap cannot set up: Docker's default seccomp profile is on" {
	run in_docker root grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status
	assert_success
	assert_line --regexp '^Seccomp:[[:space:]]+2$'
	run in_docker root bwrap --unshare-all --ro-bind / / --proc /proc \
		--dev /dev true
	assert_failure
	assert_output --partial "create new namespace"
}

@test "in the container \"auto\" falls back to Landlock, names why, and confines ffprobe" {
	local m
	for m in root user nnp; do
		run in_docker "$m" sh -c '
			printf "%s\n" "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\"},
			  \"sandbox\": \"auto\", \"audit\": \"stderr\",
			  \"filesystem\": {\"denyRead\": [\"/tmp/secret\"]}}" >/tmp/p.json
			echo TOKEN >/tmp/secret
			"$0" -p /tmp/p.json ffprobe -v error -f data -i /tmp/secret' "$INNER"
		assert_failure
		assert_output --partial '"backend":"landlock"'
		assert_output --partial "auto fell back to Landlock: bwrap cannot set up"
		assert_output --partial "Permission denied"
		refute_line TOKEN
	done
}

@test "compat.bats in Docker as root" { suite compat root; }
@test "compat.bats in Docker as --user 1000" { suite compat user; }
@test "compat.bats in Docker with --cap-drop ALL and no-new-privileges" { suite compat nnp; }
@test "escape.bats in Docker as root" { suite escape root; }
@test "escape.bats in Docker as --user 1000" { suite escape user; }
@test "escape.bats in Docker with --cap-drop ALL and no-new-privileges" { suite escape nnp; }
@test "escape2.bats in Docker as root" { suite escape2 root; }
@test "escape2.bats in Docker as --user 1000" { suite escape2 user; }
@test "escape2.bats in Docker with --cap-drop ALL and no-new-privileges" { suite escape2 nnp; }
@test "census.bats in Docker as root" { suite census root; }
@test "census.bats in Docker as --user 1000" { suite census user; }
@test "census.bats in Docker with --cap-drop ALL and no-new-privileges" {
	skip "the census sets up its user with root's CAP_CHOWN and CAP_SETUID; root's census, with every capability, covers this sandbox"
}

# ------------------------------- btrfs subvolumes (issue 29, finding 2)

# btrfs_volume WHO (root or user): BT, a directory of its own under /tmp
# holding a loop btrfs mounted at $BT/mnt, bound into the containers at
# /b: the subvolume vol, whose .env the policy hides, and the directory
# dst, both owned by WHO (uid 1000 for user); and $BT/probe, bound at
# /probe: test/probe_btrfs.c built as a program (the control) and as the
# payload ffmpeg loads. Skips with the reason where btrfs or a loop
# mount is missing.
btrfs_volume() {
	command -v mkfs.btrfs >/dev/null || skip "no mkfs.btrfs (apt-get install btrfs-progs)"
	grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null ||
		skip "this kernel has no btrfs"
	BT=$(mktemp -d /tmp/sbxdkbtrfs.XXXXXX)
	chmod 755 "$BT"
	mkdir -p "$BT/mnt" "$BT/probe"
	truncate -s 300M "$BT/btrfs.img"
	mkfs.btrfs -q "$BT/btrfs.img" >/dev/null
	mount -o loop "$BT/btrfs.img" "$BT/mnt" ||
		skip "no loop mount of a btrfs image here"
	chmod 755 "$BT/mnt"
	btrfs -q subvolume create "$BT/mnt/vol"
	mkdir "$BT/mnt/dst"
	echo "secret-$1" >"$BT/mnt/vol/.env"
	chmod 600 "$BT/mnt/vol/.env"
	[ "$1" = root ] || chown -R 1000:1000 "$BT/mnt/vol" "$BT/mnt/dst"
	gcc -Wall -Wextra -Werror -o "$BT/probe/probe_btrfs" "$TOP/test/probe_btrfs.c"
	gcc -Wall -Wextra -Werror -shared -fPIC -s -DPAYLOAD \
		-o "$BT/probe/payload.so" "$TOP/test/probe_btrfs.c"
	chmod 755 "$BT/probe"
}

# btrfs_done (teardown): the loop btrfs unmounted (its loop device goes
# with it) and BT removed.
btrfs_done() {
	[ -n "${BT:-}" ] && [ -d "$BT" ] || return 0
	if mountpoint -q "$BT/mnt"; then
		umount "$BT/mnt" 2>/dev/null || umount -l "$BT/mnt"
	fi
	rm -rf "$BT"
}

# btrfs_undo: the control's snapshot and subvolume deleted, vol writable
# again.
btrfs_undo() {
	local v
	btrfs property set "$BT/mnt/vol" ro false
	for v in "$BT"/mnt/dst/*; do
		[ ! -d "$v" ] || btrfs -q subvolume delete "$v"
	done
}

# btrfs_probes NAME: the hidden .env read, then vol snapshotted as
# dst/NAME, the .env read in the copy, a new subvolume dst/nNAME, vol set
# read-only.
btrfs_probes() {
	echo read:/b/vol/.env "snap:/b/vol:/b/dst:$1" "read:/b/dst/$1/.env" \
		"subvol:/b/dst:n$1" ro:/b/vol
}

# btrfs_in_docker MODE CMD...: CMD in a container as MODE, with the
# volume at /b and the probe at /probe.
btrfs_in_docker() {
	local RUN_FLAGS=(-v "$BT/mnt:/b" -v "$BT/probe:/probe:ro")
	in_docker "$@"
}

# btrfs_sbexec MODE PROBE...: in a container as MODE, PROBE... made by
# the payload ffmpeg loads as a LADSPA plugin, through sbexec with
# "sandbox": "auto" (the cwd writable, vol's .env hidden, /probe an
# executable tree, whose payload stands for code inside); then
# sbexec's exit status and the backend of its start record.
btrfs_sbexec() {
	local mode=$1
	shift
	btrfs_in_docker "$mode" sh -c '
		sbexec=$1
		shift
		mkdir /tmp/w && cd /tmp/w || exit
		printf "%s\n" "$@" >payload.args
		printf "%s\n" "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\"},
		  \"sandbox\": \"auto\", \"audit\": \"stderr\",
		  \"execPaths\": [\"/probe\"],
		  \"filesystem\": {\"allowWrite\": [\".\"],
		  \"denyRead\": [\"/b/vol/.env\"]}}" >/tmp/p.json
		"$sbexec" -p /tmp/p.json ffmpeg -nostdin -v error \
			-f lavfi -i anullsrc -af ladspa=file=/probe/payload.so \
			-t 0.1 -f null - 2>/tmp/err
		echo "exit $?"
		grep "\"type\":\"start\"" /tmp/err |
			grep -o "\"backend\":\"[a-z]*\"" || cat /tmp/err' sh "$INNER" "$@"
}

# btrfs_attack MODE (root or user): the control, then the attack through
# sbexec, MODE owning the subvolume.
# Without sbexec the probe reads the .env, snapshots vol and reads the
# .env in the copy, makes a subvolume and sets vol read-only; through
# sbexec (Landlock, since bwrap cannot set up here) the .env is hidden,
# each ioctl is EPERM, and neither copy nor subvolume exists.
btrfs_attack() {
	local mode=$1 who=$1
	wanted btrfs "$mode"
	btrfs_volume "$who"
	# shellcheck disable=SC2046
	run btrfs_in_docker "$mode" /probe/probe_btrfs $(btrfs_probes s1)
	assert_success
	assert_output "read=secret-$who
snap=OK
read=secret-$who
subvol=OK
ro=OK"
	btrfs subvolume show "$BT/mnt/dst/s1" >/dev/null
	btrfs subvolume show "$BT/mnt/dst/ns1" >/dev/null
	run btrfs property get "$BT/mnt/vol" ro
	assert_output "ro=true"
	btrfs_undo
	# shellcheck disable=SC2046
	run btrfs_sbexec "$mode" $(btrfs_probes s2)
	assert_success
	assert_output 'read=EACCES
snap=EPERM
read=ENOENT
subvol=EPERM
ro=EPERM
exit 0
"backend":"landlock"'
	[ ! -e "$BT/mnt/dst/s2" ] && [ ! -e "$BT/mnt/dst/ns2" ]
	run btrfs property get "$BT/mnt/vol" ro
	assert_output "ro=false"
}

@test "btrfs in Docker as root: a subvolume's snapshot, a new subvolume and the read-only flag, made without sbexec, are EPERM through sbexec (auto: Landlock)" {
	btrfs_attack root
}

@test "btrfs in Docker as --user 1000 owning the subvolume: snapshot, new subvolume and read-only flag, made without sbexec, are EPERM through sbexec (auto: Landlock)" {
	btrfs_attack user
}

# --------------------------------------------- the README's CI examples

# project DIR: the project a CI job checks out, as a git repository at
# DIR: the README's CI policy at ci/sbexec.json and a sample video at
# media/input.mp4.
project() {
	mkdir -p "$1/ci" "$1/media"
	"$TOP/test/container/readme-ci" "$TOP/README.md" policy >"$1/ci/sbexec.json"
	ffmpeg -nostdin -v error -f lavfi -i testsrc=duration=1:size=64x48:rate=10 \
		-c:v mpeg4 "$1/media/input.mp4"
	git -C "$1" init -q
	git -C "$1" add .
	git -C "$1" -c user.name=ci -c user.email=ci@example.com commit -qm project
}

# gitlab_job [SCRIPT]: SCRIPT (default: the README's GitLab job) as
# GitLab's Docker executor runs it: the project cloned with umask 0000
# (directories 0777, files 0666) by root into /builds/group/project, the
# script run there as root, under bash -e -o pipefail, in a container of
# the image (the README's debian:12) with the default umask.
gitlab_job() {
	local script=${1:-$("$TOP/test/container/readme-ci" "$TOP/README.md" gitlab)}
	local b="$BATS_TEST_TMPDIR/builds"
	project "$BATS_TEST_TMPDIR/origin"
	(umask 0000 && mkdir -p "$b/group" &&
		git clone -q "$BATS_TEST_TMPDIR/origin" "$b/group/project")
	local RUN_FLAGS=(-v "$b:/builds" -w /builds/group/project)
	in_docker root bash -e -o pipefail -c "$script"
}

# github_step: the README's GitHub Actions step as a GitHub runner runs
# it: the user runner (uid 1001, passwordless sudo, home 0750), the
# project checked out by that user (umask 0022) at
# ~/work/project/project, the step run there as runner under bash -e -o
# pipefail, in a container (where bwrap cannot set up, as under the
# AppArmor of ubuntu-24.04's runners).
github_step() {
	local script h="$BATS_TEST_TMPDIR/home"
	script=$("$TOP/test/container/readme-ci" "$TOP/README.md" github)
	project "$BATS_TEST_TMPDIR/origin"
	mkdir -p "$h/runner/work/project"
	(umask 0022 && git clone -q "$BATS_TEST_TMPDIR/origin" \
		"$h/runner/work/project/project")
	chmod 750 "$h/runner"
	chown -R 1001:1001 "$h/runner"
	local RUN_FLAGS=(-v "$h:/home")
	in_docker root bash -e -c '
		useradd -M -d /home/runner -u 1001 -U -s /bin/bash runner
		echo "runner ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/runner
		chmod 440 /etc/sudoers.d/runner
		cd /home/runner/work/project/project
		exec setpriv --reuid=runner --regid=runner --init-groups \
			env HOME=/home/runner USER=runner LOGNAME=runner \
			bash --noprofile --norc -e -o pipefail -c "$1"' sh "$script"
}

@test "the README's GitLab job runs as written in a umask-0000 checkout as root" {
	wanted ci root
	run gitlab_job
	assert_success
	assert_output --partial '"format_name": "mov,mp4,m4a,3gp,3g2,mj2"'
	assert_output --partial '"backend":"landlock"'
}

@test "a policy in a umask-0000 checkout is refused (125), and the message says to install it into /etc/sbexec/" {
	wanted ci root
	run gitlab_job 'make -s -C /src -o sbexec install
		SBEXEC_POLICY=$PWD/ci/sbexec.json \
			/usr/local/lib/sbexec/bin/ffprobe media/input.mp4 ||
			{ echo "exit $?"; exit 1; }'
	assert_failure
	assert_line "exit 125"
	assert_output --partial /etc/sbexec/
}

@test "the README's GitHub step runs as written as the runner user with sudo" {
	wanted ci root
	run github_step
	assert_success
	assert_output --partial '"format_name": "mov,mp4,m4a,3gp,3g2,mj2"'
	assert_output --partial '"backend":"landlock"'
	[ -s "$BATS_TEST_TMPDIR/home/runner/work/project/project/out/small.mp4" ]
}
