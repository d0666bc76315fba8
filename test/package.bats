#!/usr/bin/env bats
# Installable as people install tools (issue 33): `make deb` builds the
# Debian package, lintian finds nothing in it, and in images that never
# saw the source (test/container/build-image's Debian, imported into a
# Docker engine of this file's own, test/docker.bash) `apt-get install
# ./sbexec_*.deb` pulls in bubblewrap and gives a working, sandboxed
# ffprobe, as root and as a user; the previous version upgrades to it
# with an admin's policy edits kept, and remove and purge leave what
# Debian policy says. `make dist`'s tarball does the same by hand in an
# image with no compiler, no musl and no bubblewrap (Landlock).
# apt inside the containers reads only a repository of this file's: the
# package's dependency (bubblewrap, fetched once with apt-get download
# into build/container/debs) and nothing else; the containers have no
# network.

load helper
load docker
bats_require_minimum_version 1.5.0

BASE=sbexec-test:bookworm
CACHE="$TOP/build/container"
PKG="$CACHE/pkg"

setup_file() {
	export DK DOCKER DOCKER_HOST DOCKER_CONFIG NO_ENGINE= VERSION DEB PREV TGZ
	if [ "$(id -u)" -ne 0 ]; then
		NO_ENGINE="dockerd and dpkg need root (the tests run as $(id -un))"
	elif ! command -v dockerd >/dev/null; then
		NO_ENGINE="no dockerd (apt-get install docker.io)"
	elif ! command -v dh >/dev/null || ! command -v lintian >/dev/null; then
		NO_ENGINE="no debhelper or lintian (make deps)"
	elif ! command -v debootstrap >/dev/null && [ ! -s "$CACHE/rootfs.tar" ]; then
		NO_ENGINE="no debootstrap to build the image (apt-get install debootstrap)"
	fi
	[ -z "$NO_ENGINE" ] || return 0
	DOCKER=$(dirname "$(command -v dockerd)")/docker
	[ -x "$DOCKER" ] || DOCKER=docker
	mkdir -p "$CACHE/results"
	: >"$CACHE/results/times"
	VERSION=$(sed -n '1s/^sbexec (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
	DEB="$TOP/build/deb/sbexec_${VERSION}_amd64.deb"
	TGZ="$TOP/build/dist/sbexec-$VERSION-x86_64-linux.tar.gz"
	timed make-deb make -s -C "$TOP" deb >&3
	timed make-dist make -s -C "$TOP" dist >&3
	rm -rf "$PKG"
	mkdir -p "$PKG/repo"
	PREV="$PKG/sbexec_${VERSION}~prev1_amd64.deb"
	previous "$DEB" "$PREV"
	placeholder libgl1-mesa-dri "$PKG/placeholder.deb"
	repository "$PKG/repo"
	cp "$DEB" "$TGZ" "$PKG/"
	if ! start_dockerd; then
		NO_ENGINE="dockerd cannot start here: $(dockerd_says)"
		return 0
	fi
	timed image "$TOP/test/container/build-image" "$CACHE/rootfs.tar"
	timed import "$DOCKER" import "$CACHE/rootfs.tar" "$BASE" >/dev/null
	# Never saw the build, and lacks bubblewrap: the package must bring it.
	derive sbexec-pkg:fresh "dpkg -i /pkg/placeholder.deb &&
		dpkg --purge bubblewrap"
	# No compiler, no musl, no bubblewrap: the tarball alone, Landlock.
	derive sbexec-pkg:bare "dpkg --purge --force-depends bubblewrap gcc \
		gcc-12 cpp cpp-12 libc6-dev libseccomp-dev linux-libc-dev"
}

setup() {
	[ -z "$NO_ENGINE" ] || skip "$NO_ENGINE"
}

teardown_file() {
	stop_dockerd
	[ ! -s "$CACHE/results/times" ] || sed 's/^/# time: /' "$CACHE/results/times" >&3
}

# previous DEB OUT: DEB as the version before it (VERSION~prev1), the
# package an upgrade starts from.
previous() {
	local d="$BATS_FILE_TMPDIR/prev"
	rm -rf "$d"
	dpkg-deb -R "$1" "$d"
	sed -i "s/^Version: .*/Version: ${VERSION}~prev1/" "$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$2" >/dev/null
}

# placeholder NAME OUT: an empty package NAME, for apt to find the
# image's dependencies whole: build-image drops Mesa's GL drivers, which
# ffmpeg never loads, with dpkg --force-depends.
placeholder() {
	local d="$BATS_FILE_TMPDIR/placeholder"
	mkdir -p "$d/DEBIAN"
	printf '%s\n' "Package: $1" "Version: 99" "Architecture: amd64" \
		"Maintainer: sbexec tests <tests@invalid>" \
		"Description: stands for what build-image dropped" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$2" >/dev/null
}

# repository DIR: bubblewrap's .deb and an index, for apt in the images.
repository() {
	local debs="$CACHE/debs"
	mkdir -p "$debs"
	ls "$debs"/bubblewrap_*.deb >/dev/null 2>&1 ||
		(cd "$debs" && apt-get download -q bubblewrap >/dev/null 2>&1)
	cp "$debs"/bubblewrap_*.deb "$1/"
	(cd "$1" && dpkg-scanpackages -m . /dev/null >Packages 2>/dev/null)
	echo "deb [trusted=yes] file:/pkg/repo ./" >"$PKG/local.list"
}

# derive IMAGE CMD: the base image with CMD run in it, as IMAGE.
derive() {
	local name="derive-$$"
	"$DOCKER" rm -f "$name" >/dev/null 2>&1 || true
	"$DOCKER" run --name "$name" --network none -v "$PKG:/pkg:ro" \
		"$BASE" sh -c "$2" \
		>"$CACHE/results/$1.log" 2>&1 || return 1
	"$DOCKER" commit "$name" "$1" >/dev/null
	"$DOCKER" rm -f "$name" >/dev/null
}

# in_image IMAGE SCRIPT: SCRIPT (sh -eu) in a fresh container of IMAGE,
# no network, Docker's default seccomp profile (bwrap cannot set up: the
# policy's "auto" falls back to Landlock), this file's packages at /pkg.
in_image() {
	timeout 900 "$DOCKER" run --rm --network none \
		--tmpfs /tmp:exec,mode=1777 -v "$PKG:/pkg:ro" -w /tmp \
		"${RUN_FLAGS[@]}" "$1" sh -euc \
		"trap '[ \$? -eq 0 ] || tail -n 20 /tmp/apt.log 2>/dev/null' EXIT
		$2"
}

# What apt runs with inside: the local repository only.
APT='apt-get -q -y -o Dir::Etc::SourceList=/pkg/local.list -o Dir::Etc::SourceParts=/dev/null'

# probe WHO: ffprobe through the farm against the real one, as root or as
# uid 1000: the same stdout and stderr, and the records where the
# installed policy's "auto" puts them without a syslog socket (root's in
# /var/log/sbexec, the user's in their home).
PROBE='
probe() {
	as="$1"; shift
	[ "$as" = root ] && run= || run="setpriv --reuid 1000 --regid 1000 --clear-groups"
	o=/tmp/out-$as
	mkdir -m 777 $o
	$run /usr/bin/ffprobe -v error -show_format -show_streams /tmp/s.mp4 \
		>$o/real 2>$o/real.err
	$run env PATH="$FARM:$PATH" ffprobe -v error -show_format -show_streams \
		/tmp/s.mp4 >$o/sb 2>$o/err
	test -s $o/real
	cmp $o/real $o/sb
	cmp $o/real.err $o/err
	[ "$as" = root ] && f=/var/log/sbexec/audit.jsonl ||
		f=$(getent passwd 1000 | cut -d: -f6)/.local/state/sbexec/audit.jsonl
	grep -q "\"type\":\"start\".*\"cmd\":\"ffprobe\".*\"auditSink\":\"$f\"" $f
	grep -q "\"type\":\"end\".*\"exit\":0" $f
	sed -n "s/.*\"backend\":\"\([a-z]*\)\".*/$as: \1/p" $f | tail -n 1
}
ffmpeg -v error -f lavfi -i testsrc=duration=1:size=64x48:rate=5 -y /tmp/s.mp4
chmod 644 /tmp/s.mp4
id 1000 >/dev/null 2>&1 || useradd -m -u 1000 tester
'

@test "make deb: lintian --fail-on warning finds nothing in the package" {
	run lintian --fail-on warning --info "$DEB"
	assert_success
	refute_output --regexp '^[EW]: '
}

@test "the package: the binary, man pages, the policy as a conffile, the farm, the docs; bubblewrap a dependency, ffmpeg recommended" {
	run dpkg-deb -c "$DEB"
	assert_success
	for f in ./usr/bin/sbexec ./usr/share/man/man1/sbexec.1.gz \
		./usr/share/man/man5/sbexec.json.5.gz ./etc/sbexec/policy.json \
		./usr/share/doc/sbexec/README.md.gz ./usr/share/doc/sbexec/SECURITY.md.gz \
		./usr/share/doc/sbexec/examples/policy.example.json \
		./usr/share/doc/sbexec/copyright; do
		assert_line --regexp " $f( |$)"
	done
	assert_line --regexp ' \./usr/lib/sbexec/bin/ffprobe -> \.\./\.\./\.\./bin/sbexec$'
	assert_line --regexp ' \./usr/lib/sbexec/bin/ffmpeg -> \.\./\.\./\.\./bin/sbexec$'
	run dpkg-deb -f "$DEB" Depends Recommends Version
	assert_line "Depends: bubblewrap"
	assert_line "Recommends: ffmpeg"
	assert_line "Version: $VERSION"
	run sh -c "dpkg-deb --ctrl-tarfile '$DEB' | tar -xOf - ./conffiles"
	assert_output "/etc/sbexec/policy.json"
}

@test "the version has one place: -V, the package and the tarball agree with debian/changelog; both hold the same binary" {
	run "$SBEXEC" -V
	assert_output --regexp "^sbexec $VERSION \(commit [0-9a-f]{12}(-dirty)?\)$"
	assert [ -s "$TGZ" ]
	tar -xzf "$TGZ" -C "$BATS_TEST_TMPDIR"
	run "$BATS_TEST_TMPDIR/sbexec-$VERSION-x86_64-linux/sbexec" -V
	assert_output --regexp "^sbexec $VERSION \(commit "
	# The same static binary in both, as make builds it: the bytes agree.
	dpkg-deb -x "$DEB" "$BATS_TEST_TMPDIR/deb"
	cmp "$BATS_TEST_TMPDIR/deb/usr/bin/sbexec" \
		"$BATS_TEST_TMPDIR/sbexec-$VERSION-x86_64-linux/sbexec"
}

@test "apt-get install ./sbexec.deb in an image that never saw the build pulls in bubblewrap; the farm's ffprobe prints what the real one prints, as root and as a user" {
	local RUN_FLAGS=()
	run in_image sbexec-pkg:fresh "
		! command -v bwrap
		! command -v sbexec
		$APT update >>/tmp/apt.log 2>&1
		$APT install /pkg/sbexec_${VERSION}_amd64.deb >>/tmp/apt.log 2>&1
		command -v bwrap
		sbexec -V
		stat -c '%a %U %G' /var/log/sbexec
		FARM=/usr/lib/sbexec/bin
		$PROBE
		probe root
		probe user"
	assert_success
	assert_line /usr/bin/bwrap
	assert_line --regexp "^sbexec $VERSION \(commit "
	assert_line "750 root adm"
	assert_line "root: landlock"
	assert_line "user: landlock"
}

@test "upgrade from the previous version keeps the admin's policy edits; remove leaves the policy and the audit; purge leaves nothing of the package" {
	local RUN_FLAGS=()
	run in_image sbexec-pkg:fresh "
		snap() { find / -xdev \\( -path /proc -o -path /sys -o -path /dev \
			-o -path /tmp -o -path /var/lib/dpkg -o -path /var/lib/apt \
			-o -path /var/cache -o -path /var/log/apt -o -path /pkg \\) \
			-prune -o -print | sort; }
		$APT update >>/tmp/apt.log 2>&1
		$APT install bubblewrap >>/tmp/apt.log 2>&1
		snap >/tmp/before
		$APT install /pkg/sbexec_${VERSION}~prev1_amd64.deb >>/tmp/apt.log 2>&1
		dpkg-query -W -f 'before: \${Version}\n' sbexec
		sed -i 's/\"timeoutMs\": 120000/\"timeoutMs\": 60000/' /etc/sbexec/policy.json
		echo '{}' >/var/log/sbexec/audit.jsonl
		$APT install /pkg/sbexec_${VERSION}_amd64.deb >>/tmp/apt.log 2>&1
		dpkg-query -W -f 'after: \${Version}\n' sbexec
		grep -q '\"timeoutMs\": 60000' /etc/sbexec/policy.json && echo 'edit kept'
		dpkg -r sbexec >>/tmp/apt.log 2>&1
		dpkg-query -W -f '\${Status}\n' sbexec
		test ! -e /usr/bin/sbexec && test ! -e /usr/lib/sbexec && echo removed
		test -s /etc/sbexec/policy.json && test -s /var/log/sbexec/audit.jsonl && echo kept
		dpkg -P sbexec >>/tmp/apt.log 2>&1
		snap >/tmp/after
		diff /tmp/before /tmp/after && echo 'purged: nothing left'"
	assert_success
	assert_line "before: ${VERSION}~prev1"
	assert_line "after: $VERSION"
	assert_line "edit kept"
	assert_line "deinstall ok config-files"
	assert_line removed
	assert_line kept
	assert_line "purged: nothing left"
}

@test "the tarball in an image with no compiler, no musl and no bubblewrap: checksums, --link, and the linked ffprobe prints what the real one prints, as root and as a user" {
	local RUN_FLAGS=()
	run in_image sbexec-pkg:bare "
		! command -v gcc && ! command -v cc && ! command -v musl-gcc
		! command -v bwrap
		tar -xzf /pkg/sbexec-$VERSION-x86_64-linux.tar.gz -C /tmp
		cd /tmp/sbexec-$VERSION-x86_64-linux
		sha256sum -c SHA256SUMS >/dev/null && echo checksums
		install -m 755 sbexec /usr/local/bin/sbexec
		install -D -m 644 policy.example.json /etc/sbexec/policy.json
		mkdir -p /usr/local/lib/sbexec/bin
		sbexec --link /usr/local/lib/sbexec/bin
		cd /tmp
		FARM=/usr/local/lib/sbexec/bin
		$PROBE
		probe root
		probe user"
	assert_success
	assert_line checksums
	assert_line "root: landlock"
	assert_line "user: landlock"
}
