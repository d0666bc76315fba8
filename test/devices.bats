#!/usr/bin/env bats
# The policy's "devices" (DESIGN 12): character devices admitted beside
# bwrap's /dev, for hardware transcoding. There is no GPU here, so the
# mechanism is proved with the real nodes this host has: /dev/kvm
# (KVM_GET_API_VERSION answers 12) and /dev/net/tun (TUNGETFEATURES),
# with /dev/fuse as a node that stays hidden. The command is native code
# loaded as an attacker loads it (helper.bash's attack), test/probe_dev.c:
# it opens each node for reading and writing and makes its driver's
# ioctl. Each behaviour is shown first without sbexec (the control),
# then on both backends (bwrap, and Landlock: "sandbox": "landlock" on
# the host, and "auto" inside test/in_container.c), as root and as an
# unprivileged user, who gets a 0666 copy of each node made with mknod
# (the originals are 0600 root).

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D
	D=$(mktemp -d /tmp/sbxdev.XXXXXX)
	chmod 755 "$D"
	build_probes probe_dev
	# The payload's executable tree (execPaths), which a user can read.
	export XDIR
	XDIR=$(mktemp -d /tmp/sbxdevx.XXXXXX)
	chmod 755 "$XDIR"
	cp "$BATS_FILE_TMPDIR/payload.so" "$XDIR/"
	build_in_container "$D/in_container"
	test_user
	copies
}

teardown_file() {
	rm -rf "$D" "$XDIR"
}

setup() {
	common_setup
	[ -c /dev/kvm ] && [ -c /dev/net/tun ] ||
		skip "needs /dev/kvm and /dev/net/tun"
}

NODES="/dev/kvm /dev/net/tun /dev/fuse"

# copies: $D/nodes/kvm and tun, 0666 copies of the real nodes, for the
# user (made by root; none when the tests do not run as root).
copies() {
	[ "$(id -u)" -eq 0 ] || return 0
	mkdir -p "$D/nodes"
	mknod -m 0666 "$D/nodes/kvm" c 10 232
	mknod -m 0666 "$D/nodes/tun" c 10 200
}

# modes: bwrap and Landlock, on the host and in the simulated container.
modes() {
	echo bwrap
	[ "$(landlock_abi)" -lt 1 ] || echo landlock container
}

needs() {
	[ "$1" != root ] || [ "$(id -u)" -eq 0 ] ||
		skip "runs as root (the tests run as $(id -un))"
	[ "$1" = root ] || [ -c "$D/nodes/kvm" ] ||
		skip "the user's copies of the nodes need root to make"
}

# at WHO: a work directory of WHO's (the cwd; ffmpeg writes it), with
# its audit file and policy; WHO's nodes: the real ones for root, the
# copies for the user.
at() {
	WHO=$1
	DIR="$D/$WHO.$BATS_TEST_NUMBER"
	mkdir -p "$DIR/work"
	: >"$DIR/audit.jsonl"
	chmod 600 "$DIR/audit.jsonl"
	[ "$WHO" = root ] || [ "$(id -u)" -ne 0 ] ||
		chown -R "$CUID:$CGID" "$DIR"
	if [ "$WHO" = root ]; then
		KVM=/dev/kvm TUN=/dev/net/tun
	else
		KVM=$D/nodes/kvm TUN=$D/nodes/tun
	fi
	cd "$DIR/work"
}

# dev_policy MODE [EXTRA [FFMPEG]]: commands ffmpeg (with FFMPEG's
# members) and ffprobe, the backend of MODE, the filesystem members FS
# (by default writing "."), EXTRA members at the top level.
FS='"allowWrite": ["."]'
dev_policy() {
	local backend=$1
	[ "$backend" != container ] || backend=auto
	printf '%s\n' "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\",
	  \"ffmpeg\": {\"path\": \"/usr/bin/ffmpeg\" ${3:-}}},
	  \"audit\": \"$DIR/audit.jsonl\", \"sandbox\": \"$backend\",
	  \"execPaths\": [\"$XDIR\"],
	  \"filesystem\": {$FS} ${2:-}}" >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
	MODE=$1
}

# ff ARGS / fp ARGS: ffmpeg or ffprobe as $WHO, the way $MODE says:
# without sbexec (direct) or through it.
ff() {
	through ffmpeg "$@"
}

fp() {
	through ffprobe "$@"
}

through() {
	local name=$1
	shift
	case $MODE in
	direct) as "$WHO" "$name" "$@" ;;
	container) as "$WHO" "$D/in_container" "$SBEXEC" -p \
		"$DIR/policy.json" "$name" "$@" ;;
	*) as "$WHO" "$SBEXEC" -p "$DIR/policy.json" "$name" "$@" ;;
	esac
}

# probe NODE...: the probe's lines for the nodes, loaded into ffmpeg.
probe() {
	attack ff "$@"
}

# probe_ffprobe NODE...: the same loaded into ffprobe: a lavfi graph's
# ladspa filter.
probe_ffprobe() {
	attack ff "$@" >/dev/null || return
	fp -v error -f lavfi -i "anullsrc,ladspa=file=$XDIR/payload.so"
}

# ------------------------------------------------------ the controls

@test "control: without sbexec, root opens /dev/kvm, /dev/net/tun and /dev/fuse and makes their ioctls" {
	needs root
	at root
	MODE=direct
	run probe $NODES
	assert_success
	assert_output "/dev/kvm=OK kvm-api=12
/dev/net/tun=OK tun-features=$(tun_features)
/dev/fuse=OK"
}

@test "control: without sbexec, a user opens the 0666 copies and makes their ioctls, not the 0600 nodes" {
	needs user
	at user
	MODE=direct
	run probe "$KVM" "$TUN" /dev/kvm
	assert_success
	assert_output "$KVM=OK kvm-api=12
$TUN=OK tun-features=$(tun_features)
/dev/kvm=EACCES"
}

# tun_features: what TUNGETFEATURES answers here.
tun_features() {
	"$BATS_FILE_TMPDIR/probe_dev" /dev/net/tun 2>/dev/null |
		sed -n 's/.*tun-features=//p'
}

# ------------------------------------------------- without the key

# none WHO: no node opens through sbexec without "devices", each mode.
none() {
	local mode want
	needs "$1"
	at "$1"
	for mode in $(modes); do
		dev_policy "$mode"
		run probe "$KVM" "$TUN" /dev/fuse
		assert_success
		if [ "$WHO" = root ]; then
			# bwrap's /dev holds none; Landlock grants none.
			want=ENOENT
			[ "$mode" = bwrap ] || want=EACCES
			assert_output "/dev/kvm=$want
/dev/net/tun=$want
/dev/fuse=$want"
		else
			# The copies lie on a nodev mount (bwrap), or are
			# granted reading only (Landlock).
			assert_output "$KVM=EACCES
$TUN=EACCES
/dev/fuse=$([ "$mode" = bwrap ] && echo ENOENT || echo EACCES)"
		fi
	done
}

@test "without devices, root opens none of /dev/kvm, /dev/net/tun, /dev/fuse (bwrap, landlock, container)" {
	none root
}

@test "without devices, a user opens neither 0666 copy (bwrap, landlock, container)" {
	none user
}

# ---------------------------------------------------- with the key

# admitted WHO: with "devices" [kvm, tun] both open and answer their
# ioctl, and /dev/fuse stays as without the key, each mode.
admitted() {
	local mode fuse
	needs "$1"
	at "$1"
	for mode in $(modes); do
		dev_policy "$mode" ", \"devices\": [\"$KVM\", \"$TUN\"]"
		fuse=ENOENT
		[ "$mode" = bwrap ] || fuse=EACCES
		run probe "$KVM" "$TUN" /dev/fuse
		assert_success
		assert_output "$KVM=OK kvm-api=12
$TUN=OK tun-features=$(tun_features)
/dev/fuse=$fuse"
	done
}

@test "with devices, root opens /dev/kvm and /dev/net/tun and makes their ioctls; /dev/fuse stays hidden (bwrap, landlock, container)" {
	admitted root
}

@test "with devices, a user opens the listed copies and makes their ioctls (bwrap, landlock, container)" {
	admitted user
}

@test "bwrap: a device is bound from the descriptor sbexec checked, and the sandbox verified with it" {
	needs root
	at root
	dev_policy bwrap ', "devices": ["/dev/kvm"]'
	run "$SBEXEC" -p "$DIR/policy.json" --dry-run ffmpeg -version
	assert_success
	assert_output --regexp "'--dev-bind' '/proc/self/fd/[0-9]+' '/dev/kvm'"
	run probe /dev/kvm
	assert_output "/dev/kvm=OK kvm-api=12"
}

# fds MODE: the descriptors "ls -l /proc/self/fd" holds, through sbexec
# with devices [/dev/net/tun] on MODE (bwrap, landlock), one number a
# line, without ls's own (its /proc/N/fd directory).
fds() {
	local backend=$1
	[ "$backend" != container ] || backend=auto
	printf '%s\n' "{\"commands\": {\"ls\": \"/bin/ls\"},
	  \"audit\": \"$DIR/audit.jsonl\", \"sandbox\": \"$backend\",
	  \"devices\": [\"/dev/net/tun\"]}" >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
	if [ "$1" = container ]; then
		"$D/in_container" "$SBEXEC" -p "$DIR/policy.json" ls -l /proc/self/fd/
	else
		"$SBEXEC" -p "$DIR/policy.json" ls -l /proc/self/fd/
	fi | awk '$NF !~ "^/proc/[0-9]+/fd$" && $(NF-2) ~ /^[0-9]+$/ { print $(NF-2) }' |
		sort -n
}

@test "control: bwrap hands its command the descriptor of a --dev-bind /proc/self/fd source" {
	needs root
	run bwrap --ro-bind / / --dev /dev --proc /proc \
		--dev-bind /proc/self/fd/9 /dev/net/tun \
		ls -l /proc/self/fd/ 9</dev/net/tun
	assert_success
	assert_line --regexp '^l.* 9 -> /dev/net/tun$'
}

@test "with devices [/dev/net/tun], the command holds descriptors 0, 1 and 2 only (bwrap, landlock, container)" {
	local mode
	needs root
	at root
	for mode in $(modes); do
		run fds "$mode"
		assert_output "0
1
2"
	done
}

@test "with devices, the start record says loudly that host devices are open" {
	needs root
	at root
	dev_policy bwrap ', "devices": ["/dev/kvm"]'
	run through ffmpeg -v error -version
	assert_success
	AUDIT="$DIR/audit.jsonl"
	run audit_get start 'r["reasons"]'
	assert_output --partial 'devices: host device nodes are open to the command'
}

# --------------------------------------------------- per command

# per_command WHO: devices given to ffmpeg only reach ffmpeg.
per_command() {
	local mode want
	needs "$1"
	at "$1"
	for mode in $(modes); do
		dev_policy "$mode" "" ", \"devices\": [\"$KVM\"]"
		run probe "$KVM"
		assert_output "$KVM=OK kvm-api=12"
		want=EACCES
		[ "$WHO" = user ] || [ "$mode" != bwrap ] || want=ENOENT
		run probe_ffprobe "$KVM"
		assert_success
		assert_output "$KVM=$want"
	done
}

@test "a command's own devices reach it only: ffmpeg opens /dev/kvm, ffprobe does not (root)" {
	per_command root
}

@test "a command's own devices reach it only: ffmpeg opens the copy, ffprobe does not (user)" {
	per_command user
}

@test "a command's empty devices takes back the top level's" {
	needs root
	at root
	dev_policy bwrap ', "devices": ["/dev/kvm"]' ', "devices": []'
	run probe /dev/kvm
	assert_output "/dev/kvm=ENOENT"
}

# --------------------------------------------------------- schema

# refused JSON MESSAGE: the policy with top-level EXTRA is refused, 125,
# with MESSAGE.
refused() {
	dev_policy bwrap "$1"
	run -125 sbx -p "$DIR/policy.json" --check
	assert_output "sbexec: $DIR/policy.json: $2"
}

@test "a devices entry that is not a character device is refused with its key path" {
	at root
	: >"$DIR/file"
	ln -s /dev/kvm "$DIR/link"
	refused ", \"devices\": [\"/dev/kvm\", \"$DIR/file\"]" \
		"devices[1]: $DIR/file: not a character device"
	refused ", \"devices\": [\"/dev/net\"]" \
		"devices[0]: /dev/net: not a character device"
	refused ", \"devices\": [\"$DIR/link\"]" \
		"devices[0]: $DIR/link: a symbolic link (or one on the way) to /dev/kvm; name the node itself"
	refused ", \"devices\": [\"/dev/nonexistent\"]" \
		"devices[0]: /dev/nonexistent: No such file or directory"
	refused ', "devices": ["gpu"]' \
		'devices[0]: "gpu": must be "dri", "nvidia" or the absolute path of a character device'
	refused ', "devices": ["dri", "dri"]' 'devices[1]: "dri" is listed twice'
	refused ', "devices": "/dev/kvm"' 'devices: must be an array'
	refused ', "devices": [1]' 'devices[0]: must be a string'
}

@test "a block device is refused: devices admits character devices only" {
	local blk
	blk=$(find /dev -maxdepth 1 -type b | head -n 1)
	[ -n "$blk" ] || skip "no block device in /dev"
	at root
	refused ", \"devices\": [\"$blk\"]" "devices[0]: $blk: not a character device"
}

@test "a command's devices are checked with its key path" {
	at root
	dev_policy bwrap "" ', "devices": ["/dev/net"]'
	run -125 sbx -p "$DIR/policy.json" --check
	assert_output "sbexec: $DIR/policy.json: commands.ffmpeg.devices[0]: /dev/net: not a character device"
}

@test "a bypassed command refuses devices, which only the sandbox can honour" {
	at root
	printf '%s\n' '{"commands": {"ffprobe": {"path": "/usr/bin/ffprobe",
	  "devices": ["/dev/kvm"]}}, "bypass": ["ffprobe"]}' >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
	run -125 sbx -p "$DIR/policy.json" --check
	assert_output --partial "commands.ffprobe.devices: ffprobe is bypassed"
}

@test "a device inside what the policy hides is refused at run, 125, on both backends" {
	local mode
	needs root
	at root
	for mode in $(modes); do
		FS='"allowWrite": ["."], "denyRead": ["/dev/net"]'
		dev_policy "$mode" ', "devices": ["/dev/net/tun"]'
		run -125 through ffmpeg -v error -version
		assert_output --partial "devices: /dev/net/tun lies inside what the policy hides"
	done
}

# ---------------------------------------------------------- --check

@test "--check prints each path and what each set resolves to on this host" {
	at root
	dev_policy bwrap ', "devices": ["/dev/kvm", "dri", "nvidia"]'
	run sbx -p "$DIR/policy.json" --check
	assert_success
	assert_line --partial 'devices (beside null, zero, full, random, urandom, tty'
	assert_line '  path       /dev/kvm (10:232)'
	if compgen -G '/dev/dri/renderD*' >/dev/null; then
		assert_line --regexp '^  dri        /dev/dri/renderD[0-9]+ \(226:[0-9]+\)$'
	else
		assert_line '  dri        none here'
	fi
	[ -e /dev/nvidiactl ] || assert_line '  nvidia     none here'
}

@test "--check says nothing of devices when the policy admits none" {
	at root
	dev_policy bwrap
	run sbx -p "$DIR/policy.json" --check
	assert_success
	refute_output --partial 'devices'
}
