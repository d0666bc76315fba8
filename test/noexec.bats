#!/usr/bin/env bats
# No new code from argv, media or stdin, bwrap backend (issue 30, item
# 1; DESIGN 13): every mount of the sandbox is noexec but /usr (real
# /bin, /sbin, /lib*), the run's binaries and execPaths, and a file
# handed in as stdin reaches the command through the sandbox's mounts.
# Each route is shown first without sbexec (the control: a marker the
# loaded library writes into the cwd, never ffmpeg's exit status), then
# through sbexec, as root and as an unprivileged user. The cwd is
# writable: what stops a route is never that the marker could not be
# written.
#  route 1: a data: URI writes x.so into the writable cwd, ladspa loads it
#  route 2: the upload itself, in a read-only input directory
#  route 3: a regular file passed as stdin, ladspa=file=/proc/self/fd/0
#  route 7: frei0r=filter_name=../../../..$W/x with a frei0r-1 directory
#           on ffmpeg's search path (made in a mount namespace of the
#           test's own)
# Under Landlock (item 3) no mount is noexec: every executable mapping
# of a file waits on sbexec, which allows only the executable trees
# (mapwatch.c); the same routes fail there too.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D
	D=$(mktemp -d /tmp/sbxnoexec.XXXXXX)
	chmod 755 "$D"
	# The library marks the process it loads into: ./preload.ffmpeg.
	gcc -Wall -Wextra -Werror -shared -fPIC -o "$D/x.so" \
		"$BATS_TEST_DIRNAME/preload_mark.c"
	test_user
}

teardown_file() {
	rm -rf "$D"
}

needs() {
	[ "$1" != root ] || [ "$(id -u)" -eq 0 ] ||
		skip "runs as root (the tests run as $(id -un))"
}

# at WHO MODE: a fresh work directory of WHO's (the cwd, writable), a
# read-only input directory holding the upload (x.so), the audit file
# and a policy for MODE (direct: none).
at() {
	WHO=$1 MODE=$2
	DIR="$D/$WHO.$BATS_TEST_NUMBER.$MODE"
	W="$DIR/work" IN="$DIR/in" AUDIT="$DIR/audit.jsonl"
	rm -rf "$DIR"
	mkdir -p "$W" "$IN"
	cp "$D/x.so" "$IN/upload.mp4"
	: >"$AUDIT"
	chmod 600 "$AUDIT"
	printf '%s\n' "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\"},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"$MODE\",
	  \"filesystem\": {\"allowWrite\": [\".\"]}}" >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
	[ "$WHO" = root ] || [ "$(id -u)" -ne 0 ] ||
		chown -R "$CUID:$CGID" "$DIR"
	chmod 755 "$IN"
	cd "$W"
}

# ff ARGS: ffmpeg as $WHO, through sbexec unless $MODE is direct.
ff() {
	if [ "$MODE" = direct ]; then
		as "$WHO" ffmpeg "$@"
	else
		as "$WHO" "$SBEXEC" -p "$DIR/policy.json" ffmpeg "$@"
	fi
}

# ladspa FILE: a LADSPA plugin loaded from FILE.
ladspa() {
	ff -nostdin -v error -f lavfi -i anullsrc \
		-af "ladspa=file=$1" -t 0.1 -f null -
}

route1() {
	ff -nostdin -v error -y -f data \
		-i "data:application/octet-stream;base64,$(base64 -w0 "$D/x.so")" \
		-map 0 -c copy -f data x.so || return
	ladspa ./x.so
}

route2() {
	ladspa "$IN/upload.mp4"
}

route3() {
	ladspa /proc/self/fd/0 <"$IN/upload.mp4"
}

# each ROUTE MODE WHO...: ROUTE as each WHO in MODE; with direct the
# marker must appear, else it must not.
each() {
	local route=$1 mode=$2 who
	shift 2
	for who in "$@"; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" "$mode"
		run "$route"
		if [ "$mode" = direct ]; then
			[ -e preload.ffmpeg ] ||
				fail "$route did not run its code without sbexec ($who): $output"
		else
			[ ! -e preload.ffmpeg ] ||
				fail "$route ran its code through sbexec ($mode, $who)"
			assert_failure
		fi
	done
}

@test "route 1 control: without sbexec, a data: URI writes x.so and ladspa runs it, as root and as a user" {
	each route1 direct root user
}

@test "route 1: through sbexec (bwrap) the x.so written into the writable cwd does not load, as root" {
	needs root
	each route1 bwrap root
}

@test "route 1: through sbexec (bwrap) the x.so written into the writable cwd does not load, as a user" {
	each route1 bwrap user
}

@test "route 1: through sbexec (landlock) the x.so written into the writable cwd does not load, as root and as a user" {
	each route1 landlock root user
}

@test "route 2 control: without sbexec, the upload in a read-only input directory loads as a LADSPA plugin" {
	each route2 direct root user
}

@test "route 2: through sbexec (bwrap) the upload does not load, as root and as a user" {
	each route2 bwrap root user
}

@test "route 2: through sbexec (landlock) the upload does not load, as root and as a user" {
	each route2 landlock root user
}

@test "route 3 control: without sbexec, the stdin file loads as ladspa=file=/proc/self/fd/0" {
	each route3 direct root user
}

@test "route 3: through sbexec (bwrap) the stdin file does not load, as root and as a user" {
	each route3 bwrap root user
}

@test "route 3: the stdin file is not at bwrap's init's /proc/1/fd/0" {
	at root bwrap
	# readlink as the command: a command with programs is in a Landlock
	# domain of its own, which may not look into init's descriptors.
	printf '%s\n' "{\"commands\": {\"readlink\": \"/usr/bin/readlink\"},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"bwrap\"}" >"$DIR/policy.json"
	run "$SBEXEC" -p "$DIR/policy.json" readlink /proc/1/fd/0 \
		<"$IN/upload.mp4"
	assert_success
	assert_line /dev/null
	refute_line "$(readlink -f "$IN/upload.mp4")"
}

@test "route 3: ffprobe still seeks in a stdin file (moov at the end), and the offset the caller left is kept" {
	at root bwrap
	printf '%s\n' "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\",
	  \"sh\": $(sh_programs)}, \"audit\": \"$AUDIT\",
	  \"sandbox\": \"bwrap\"}" >"$DIR/policy.json"
	ffmpeg -nostdin -v error -f lavfi -i testsrc=duration=1:size=64x48 \
		-c:v mpeg4 "$IN/s.mp4"
	run "$SBEXEC" -p "$DIR/policy.json" ffprobe -v error \
		-show_entries format=duration -of csv=p=0 - <"$IN/s.mp4"
	assert_success
	assert_output 1.000000
	printf 'abcdef\n' >"$IN/t.txt"
	run sh -c 'head -c 3 >/dev/null; "$1" -p "$2" sh -c "cat"' _ \
		"$SBEXEC" "$DIR/policy.json" <"$IN/t.txt"
	assert_output def
}

@test "route 3: a stdin file the sandbox does not show is refused (125), not handed in" {
	at root bwrap
	printf '%s\n' "{\"commands\": {\"sh\": $(sh_programs)},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"bwrap\",
	  \"filesystem\": {\"denyRead\": [\"$IN\"]}}" >"$DIR/policy.json"
	run -125 "$SBEXEC" -p "$DIR/policy.json" sh -c 'echo ran' \
		<"$IN/upload.mp4"
	refute_output --partial ran
	assert_output --partial "stdin is a file the sandbox does not show"
}

@test "route 3: through sbexec (landlock) the stdin file does not load, as root and as a user" {
	each route3 landlock root user
}

# route7 WHO MODE: in a mount namespace of the test's own, an empty
# frei0r-1 directory on ffmpeg's search path; frei0r walks out of it to
# the cwd's x.so (written there as in route 1).
route7() {
	local up="../../../..$W/x"
	cp "$D/x.so" "$W/x.so"
	[ "$WHO" = root ] || chown "$CUID:$CGID" "$W/x.so"
	unshare -m sh -c 'mount -t tmpfs sbexec-frei0r /usr/local/lib &&
		mkdir /usr/local/lib/frei0r-1 && shift && exec "$@"' _ \
		x $(setpriv_for "$WHO") \
		$([ "$MODE" = direct ] && echo ffmpeg ||
			echo "$SBEXEC" -p "$DIR/policy.json" ffmpeg) \
		-nostdin -v error -f lavfi -i testsrc=d=0.1 \
		-vf "frei0r=filter_name=$up" -f null -
}

frei0r() {
	local who
	[ "$(id -u)" -eq 0 ] || skip "needs root for a mount namespace"
	for who in root user; do
		at "$who" "$1"
		run route7
		if [ "$1" = direct ]; then
			[ -e preload.ffmpeg ] ||
				fail "frei0r did not run the code without sbexec ($who): $output"
		else
			[ ! -e preload.ffmpeg ] ||
				fail "frei0r ran the code through sbexec ($who)"
		fi
	done
}

@test "route 7 control: without sbexec, frei0r=filter_name=../../.. walks to x.so and runs it, as root and as a user" {
	frei0r direct
}

@test "route 7: through sbexec (bwrap) frei0r's walk to x.so loads nothing, as root and as a user" {
	frei0r bwrap
}

@test "route 7: through sbexec (landlock) frei0r's walk to x.so loads nothing, as root and as a user" {
	frei0r landlock
}
