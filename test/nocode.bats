#!/usr/bin/env bats
# No new code from argv, media or stdin (issue 30, DESIGN 13): the routes
# by which the real ffmpeg runs a program it was not, each shown first
# without sbexec (the control: a marker the program writes, never
# ffmpeg's exit status), then through sbexec on both backends (bwrap, and
# Landlock on the host), as root and as an unprivileged user. The marker
# lies in the working directory, which the policy makes writable: what
# stops a route is never that the program could not write it.
#
# Here so far: the environment (sbexec.json(5), envAllowList).
#  route 4: -f alsa "file:'|cmd'": alsa-lib's file plugin pipes into
#           /bin/sh -c cmd; ALSA_CONFIG_PATH=/dev/null defines no PCM.
#  route 6: HOME unset: libjack execs the command line of
#           "(null)/.jackdrc", which the run itself writes into the cwd;
#           JACK_NO_START_SERVER=1 starts nothing.
#  bwrap on the host gets no LD_PRELOAD the policy admits for the
#  command.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D
	D=$(mktemp -d /tmp/sbxnocode.XXXXXX)
	chmod 755 "$D"
	mkdir -m 755 "$D/x"
	gcc -Wall -Wextra -Werror -shared -fPIC -o "$D/x/preload.so" \
		"$BATS_TEST_DIRNAME/preload_mark.c"
	test_user
	ls -d /dev/shm/jack_db-* >"$D/jack_before" 2>/dev/null || true
}

# libjack, run by the controls without sbexec, leaves its database in
# /dev/shm/jack_db-UID: removed unless it was there before, or the
# census of a later run would find it among the host's IPC objects.
teardown_file() {
	local d
	for d in /dev/shm/jack_db-*; do
		[ -d "$d" ] || continue
		grep -qxF "$d" "$D/jack_before" || rm -rf "$d"
	done
	rm -rf "$D"
}

# at WHO MODE [EXTRA [COMMANDS]]: a fresh work directory of WHO's (the
# cwd), the audit file, and a policy for MODE with ffmpeg and sh, "."
# writable, EXTRA members and COMMANDS more commands (JSON, each
# starting with a comma).
at() {
	WHO=$1 MODE=$2
	DIR="$D/$WHO.$BATS_TEST_NUMBER.$MODE"
	W="$DIR/work" AUDIT="$DIR/audit.jsonl"
	rm -rf "$DIR"
	mkdir -p "$W"
	: >"$AUDIT"
	chmod 600 "$AUDIT"
	printf '%s\n' "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\",
	  \"ffprobe\": \"/usr/bin/ffprobe\", \"sh\": \"/bin/sh\" ${4:-}},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"$MODE\",
	  \"filesystem\": {\"allowWrite\": [\".\"]} ${3:-}}" >"$DIR/policy.json"
	chmod 644 "$DIR/policy.json"
	[ "$WHO" = root ] || [ "$(id -u)" -ne 0 ] ||
		chown -R "$CUID:$CGID" "$DIR"
	cd "$W"
}

# through NAME ARGS: NAME as $WHO through sbexec, or without it (and
# without HOME, as the default policy passes it) when $MODE is direct.
through() {
	local name=$1
	shift
	if [ "$MODE" = direct ]; then
		as "$WHO" env -u HOME "$name" "$@"
	else
		as "$WHO" "$SBEXEC" -p "$DIR/policy.json" "$name" "$@"
	fi
}

# ------------------------------------------------------------ route 4

# alsa_pipe: ffmpeg plays silence into alsa-lib's file plugin, whose
# output is a pipe to /bin/sh -c "touch marker".
alsa_pipe() {
	through ffmpeg -nostdin -v error -f lavfi -i anullsrc -t 0.1 \
		-f alsa "file:'|/usr/bin/touch $W/marker'"
}

@test "route 4 control: without sbexec, -f alsa \"file:'|cmd'\" runs cmd, as root and as a user" {
	local who
	for who in root user; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" direct
		run alsa_pipe
		[ -e marker ]
	done
}

route4() {
	local mode
	needs_who "$1"
	for mode in $(host_modes); do
		at "$1" "$mode"
		run alsa_pipe
		assert_failure
		assert_output --partial "Unknown PCM file:"
		[ ! -e marker ]
	done
}

@test "route 4: -f alsa \"file:'|cmd'\" runs nothing through sbexec (ALSA_CONFIG_PATH=/dev/null), as root (bwrap, landlock)" {
	route4 root
}

@test "route 4: -f alsa \"file:'|cmd'\" runs nothing through sbexec (ALSA_CONFIG_PATH=/dev/null), as a user (bwrap, landlock)" {
	route4 user
}

# ------------------------------------------------------------ route 6

# jackdrc: three runs of ffmpeg, each on argv alone. hls makes the
# directory "(null)" (strftime_mkdir), a data: URI writes
# "(null)/.jackdrc" (libjack execs its first line as
# "PROGRAM -T -ndefault ARGS", which sort takes: its temporary directory
# is "-ndefault"), and -f jack opens a client. The last run's output.
jackdrc() {
	local line="/usr/bin/sort -o $W/marker /dev/null"
	through ffmpeg -nostdin -v error -f lavfi -i anullsrc -t 0.1 \
		-f hls -strftime 1 -strftime_mkdir 1 \
		-hls_segment_filename '(null)/s.ts' x.m3u8 || return
	through ffmpeg -nostdin -v error -y -f data \
		-i "data:text/plain;base64,$(printf '%s\n' "$line" | base64 -w0)" \
		-map 0 -c copy -f data '(null)/.jackdrc' || return
	[ -s '(null)/.jackdrc' ] || return
	through ffmpeg -nostdin -v error -f jack -i x -t 0.1 -f null -
}

@test "route 6 control: without sbexec and HOME, ffmpeg writes (null)/.jackdrc and -f jack execs it, as root and as a user" {
	local who
	for who in root user; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" direct
		run jackdrc
		[ -s '(null)/.jackdrc' ]
		[ -e marker ]
	done
}

route6() {
	local mode
	needs_who "$1"
	for mode in $(host_modes); do
		at "$1" "$mode"
		run jackdrc
		assert_failure
		[ -s '(null)/.jackdrc' ]
		assert_output --partial "Unable to register as a JACK client"
		[ ! -e marker ]
	done
}

@test "route 6: -f jack starts no server from (null)/.jackdrc through sbexec (JACK_NO_START_SERVER=1), as root (bwrap, landlock)" {
	route6 root
}

@test "route 6: -f jack starts no server from (null)/.jackdrc through sbexec (JACK_NO_START_SERVER=1), as a user (bwrap, landlock)" {
	route6 user
}

# ------------------------------------------------ what the command gets

# quiet_env: the two variables as the command sees them.
quiet_env() {
	through sh -c 'printf "%s|%s\n" "${JACK_NO_START_SERVER-unset}" \
		"${ALSA_CONFIG_PATH-unset}"'
}

@test "a sandboxed command gets JACK_NO_START_SERVER=1 and ALSA_CONFIG_PATH=/dev/null (bwrap, landlock)" {
	local mode
	for mode in $(host_modes); do
		at root "$mode"
		JACK_NO_START_SERVER=0 ALSA_CONFIG_PATH=/etc/x run quiet_env
		assert_success
		assert_output "1|/dev/null"
	done
}

@test "a policy's own non-empty ALSA_CONFIG_PATH is kept, an empty one replaced (bwrap, landlock)" {
	local mode
	for mode in $(host_modes); do
		at root "$mode" ', "envAllowList": ["ALSA_CONFIG_PATH"]'
		ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf run quiet_env
		assert_success
		assert_output "1|/usr/share/alsa/alsa.conf"
		ALSA_CONFIG_PATH= run quiet_env
		assert_success
		assert_output "1|/dev/null"
	done
}

@test "a bypassed command gets neither variable" {
	at root bwrap ', "bypass": ["ffprobe"]'
	run as root "$SBEXEC" -p "$DIR/policy.json" -n ffprobe
	assert_success
	assert_line "decision: bypass"
	assert_line "env: PATH"
}

# ---------------------------------------------------- bwrap's own env

# preload: sbexec runs ffmpeg under a policy that admits LD_PRELOAD,
# naming a library that marks every process it is loaded into. Its
# directory is one of the policy's execPaths: under bwrap nothing else
# outside the system's trees may be mapped executable.
preload() {
	LD_PRELOAD="$D/x/preload.so" through ffmpeg -nostdin -v error \
		-f lavfi -i anullsrc -t 0.1 -f null -
}

@test "LD_PRELOAD control: bwrap run with it loads the library on the host, as root and as a user" {
	local who
	for who in root user; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" direct
		run as "$who" env LD_PRELOAD="$D/x/preload.so" \
			/usr/bin/bwrap --ro-bind / / -- /bin/true
		assert_success
		[ -e preload.bwrap ]
	done
}

preloaded() {
	needs_who "$1"
	at "$1" bwrap ", \"envAllowList\": [\"PATH\", \"LD_PRELOAD\"],
	  \"execPaths\": [\"$D/x\"]"
	run preload
	assert_success
	[ -e preload.ffmpeg ]
	[ ! -e preload.bwrap ]
}

@test "bwrap runs with an empty environment: an LD_PRELOAD the policy admits reaches the command only, as root" {
	preloaded root
}

@test "bwrap runs with an empty environment: an LD_PRELOAD the policy admits reaches the command only, as a user" {
	preloaded user
}

# ------------------------------------- no exec, no new executable memory

# Item 2 (final.c): even where the environment would let a route start a
# program, nothing starts once the command runs; route 5's python3 never
# gets to write its /proc/self/mem. The policy admits the caller's
# ALSA_CONFIG_PATH, the system's own configuration, so that alsa-lib's
# pipe plugin is there to run /bin/sh -c.

ALSA_CONF=/usr/share/alsa/alsa.conf

# mem_py MARKER: python3 overwrites libc's labs through /proc/self/mem
# with "return 42" and marks when the call answers so: native code ran.
mem_py() {
	printf '%s' "import ctypes
f = ctypes.CDLL(None).labs
m = open('/proc/self/mem', 'r+b', buffering=0)
m.seek(ctypes.cast(f, ctypes.c_void_p).value)
m.write(bytes([0xb8, 42, 0, 0, 0, 0xc3]))
m.close()
f(0) == 42 and open('$1', 'w').close()"
}

# alsa_run CMD: route 4's pipe with ALSA's own configuration.
alsa_run() {
	ALSA_CONFIG_PATH=$ALSA_CONF through ffmpeg -nostdin -v error \
		-f lavfi -i anullsrc -t 0.1 -f alsa "file:'|$1'"
}

@test "route 5 control: without sbexec, ffmpeg's alsa pipe starts python3, which writes its /proc/self/mem and runs code, as root and as a user" {
	local who
	[ -r "$ALSA_CONF" ] || skip "no $ALSA_CONF"
	for who in root user; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" direct
		mem_py "$W/marker" >mem.py
		run alsa_run "python3 $W/mem.py"
		[ -e marker ]
	done
}

noexec_after() {
	local mode
	needs_who "$1"
	[ -r "$ALSA_CONF" ] || skip "no $ALSA_CONF"
	for mode in $(host_modes); do
		at "$1" "$mode" ', "envAllowList": ["ALSA_CONFIG_PATH"]'
		mem_py "$W/marker" >mem.py
		run alsa_run "/usr/bin/touch $W/marker"
		[ ! -e marker ]
		run alsa_run "python3 $W/mem.py"
		[ ! -e marker ]
		# The pipe plugin was there: its shell never ran.
		assert_output --partial "running |python3 $W/mem.py for writing failed"
	done
}

@test "routes 4 and 5 with ALSA's configuration admitted: the pipe plugin's shell never starts through sbexec, as root (bwrap, landlock)" {
	noexec_after root
}

@test "routes 4 and 5 with ALSA's configuration admitted: the pipe plugin's shell never starts through sbexec, as a user (bwrap, landlock)" {
	noexec_after user
}

# probe_wx [MODE]: test/probe_wx.c as command "wx", from an executable
# tree of the policy's, as $WHO; direct without sbexec.
build_wx() {
	[ -x "$D/x/probe_wx" ] || gcc -Wall -Wextra -Werror \
		-o "$D/x/probe_wx" "$BATS_TEST_DIRNAME/probe_wx.c"
}

# wx_command [KEYS]: command "wx", the probe, with KEYS of its own.
wx_command() {
	printf '%s' ", \"wx\": {\"path\": \"$D/x/probe_wx\" ${1:-}}"
}

@test "W^X control: without sbexec, the probe maps writable code, makes a memfd, execs, as root and as a user" {
	local who
	build_wx
	for who in root user; do
		[ "$who" = user ] || [ "$(id -u)" -eq 0 ] || continue
		at "$who" direct
		run as "$who" "$D/x/probe_wx"
		assert_success
		assert_line "mmap-wx ok"
		assert_line "mprotect-x ok"
		assert_line "memfd ok"
		assert_line "personality ok"
		assert_line "mdwe-off ok"
		assert_line "execve ok"
		# SHM_EXEC is refused to a user by an LSM of some hosts.
		[ "$who" = user ] || assert_line "shmat-exec ok"
	done
}

wx_refused() {
	local mode
	needs_who "$1"
	build_wx
	for mode in $(host_modes); do
		at "$1" "$mode" ", \"execPaths\": [\"$D/x\"]" "$(wx_command)"
		run through wx
		assert_success
		refute_output --partial " ok"
		assert_line "mmap-wx refused"
		assert_line "mprotect-x refused"
		assert_line "memfd refused"
		assert_line "shmat-exec refused"
		assert_line "personality refused"
		assert_line "execve refused"
		# MDWE is the kernel's from 6.3 on; the filter says it anyway.
		if prctl_mdwe; then assert_line "mdwe-off refused"; fi
	done
}

# prctl_mdwe: the running kernel has PR_SET_MDWE.
prctl_mdwe() {
	python3 -c 'import ctypes, sys
sys.exit(ctypes.CDLL(None).prctl(66, 0, 0, 0, 0) < 0)'
}

@test "W^X and no exec through sbexec: every request of the probe refused, as root (bwrap, landlock)" {
	wx_refused root
}

@test "W^X and no exec through sbexec: every request of the probe refused, as a user (bwrap, landlock)" {
	wx_refused user
}

@test "allowWriteExecute lifts W^X for its command only; exec stays refused (bwrap, landlock)" {
	local mode
	build_wx
	for mode in $(host_modes); do
		at root "$mode" ", \"execPaths\": [\"$D/x\"]" \
			"$(wx_command ', "allowWriteExecute": true')"
		run through wx
		assert_success
		assert_line "mmap-wx ok"
		assert_line "mprotect-x ok"
		assert_line "memfd ok"
		assert_line "execve refused"
	done
}

@test "fast_bilinear: refused with swscale's message by default, runs with allowWriteExecute (bwrap, landlock)" {
	local mode
	fast() {
		through "$1" -nostdin -v error -f lavfi \
			-i testsrc=duration=0.2:size=320x240 \
			-vf format=yuv420p,scale=640:480:flags=fast_bilinear -f null -
	}
	for mode in $(host_modes); do
		at root "$mode" "" ', "jit": {"path": "/usr/bin/ffmpeg",
		  "allowWriteExecute": true}'
		run fast ffmpeg
		assert_failure
		assert_output --partial "mprotect failed, cannot use fast bilinear scaler"
		run fast jit
		assert_success
		assert_output ""
	done
}

# ------------------------------------------------------------ programs

@test "programs: a command starts what it lists and nothing else; without the key, nothing (bwrap, landlock)" {
	local mode
	for mode in $(host_modes); do
		at root "$mode" "" ', "sh2": {"path": "/bin/sh",
		  "programs": ["/usr/bin/cat"]}'
		echo hello >in.txt
		run through sh -c 'cat in.txt'
		assert_failure 126
		assert_output --partial "cat: Operation not permitted"
		run through sh2 -c 'cat in.txt'
		assert_success
		assert_output hello
		run through sh2 -c 'ls in.txt'
		assert_failure 126
		assert_output --partial "ls: Permission denied"
	done
}

@test "programs: named in the start record and its loud reasons; refused at the top level, twice, as /, in a writable place, on a bypassed command" {
	at root bwrap "" ', "sh2": {"path": "/bin/sh",
	  "programs": ["/usr/bin/cat"]}'
	run through sh2 -c true
	assert_success
	run python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
s = [x for x in r if x["type"] == "start"][-1]
print(s["programs"], any(w.startswith("programs:") for w in s["reasons"]))' "$AUDIT"
	assert_output "['/usr/bin/cat'] True"
	bad() {
		printf '%s\n' "$1" >"$DIR/bad.json"
		chmod 644 "$DIR/bad.json"
		run "$SBEXEC" -p "$DIR/bad.json" --check
		assert_failure 125
		assert_output --partial "$2"
	}
	mkdir -m 777 "$DIR/open"
	cp /bin/true "$DIR/open/tool"
	bad '{"commands": {"sh": "/bin/sh"}, "programs": ["/bin/ls"]}' \
		'programs: unknown key'
	bad '{"commands": {"sh": {"path": "/bin/sh",
	  "programs": ["/bin/ls", "/bin/ls"]}}}' 'listed twice'
	bad '{"commands": {"sh": {"path": "/bin/sh", "programs": ["/"]}}}' \
		'commands.sh.programs[0]: "/" would let the command start anything'
	bad "{\"commands\": {\"sh\": {\"path\": \"/bin/sh\",
	  \"programs\": [\"$DIR/open/tool\"]}}}" 'commands.sh.programs:'
	bad '{"commands": {"ffprobe": {"path": "/usr/bin/ffprobe",
	  "programs": ["/bin/ls"]}}, "bypass": ["ffprobe"]}' \
		'commands.ffprobe.programs: ffprobe is bypassed'
}

# ------------------------------------------------- the workloads go on

# workloads: what the layers must not break, each run twice, natively
# and through sbexec, and each output probed: probes of mp4, mkv and
# webm; transcodes to VP8, VP9, mp3, H.264, H.265, AV1 (aom, SVT-AV1,
# rav1e; dav1d decodes), opus and vorbis; scale, drawtext with a font
# fontconfig finds, subtitles (libass), -sub_charenc through a gconv
# charset, soxr and rubberband.
WORKLOADS=(
	"vp8.webm|-c:v libvpx -b:v 100k"
	"vp9.webm|-c:v libvpx-vp9 -b:v 100k -deadline realtime -cpu-used 8"
	"x.mp3|-vn -c:a libmp3lame"
	"h264.mp4|-c:v libx264 -preset ultrafast"
	"h265.mp4|-c:v libx265 -preset ultrafast -x265-params log-level=error"
	"aom.mkv|-c:v libaom-av1 -cpu-used 8 -row-mt 1 -b:v 50k"
	"svt.mkv|-c:v libsvtav1 -preset 12"
	"rav1e.mkv|-c:v librav1e -speed 10"
	"opus.ogg|-vn -c:a libopus"
	"vorbis.ogg|-vn -c:a libvorbis"
	"scale.mkv|-vf scale=32:24 -c:v ffv1"
	"text.mkv|-vf drawtext=text=sbexec:fontcolor=white -c:v ffv1"
	"subs.mkv|-vf subtitles=subs.srt -c:v ffv1"
	"charenc.mkv|-sub_charenc CP1252 -i subs1252.srt -map 0:v -map 1 -c:v ffv1 -c:s ass"
	"soxr.wav|-vn -af aresample=resampler=soxr:osr=22050"
	"rubber.wav|-vn -af rubberband=tempo=1.5"
)

# workload_inputs: the sample (testsrc, sine) and two subtitle files.
workload_inputs() {
	ffmpeg -nostdin -v error -f lavfi -i testsrc=duration=0.5:size=96x64:rate=10 \
		-f lavfi -i sine=duration=0.5 -shortest -c:v mpeg4 -c:a aac in.mp4
	printf '1\n00:00:00,000 --> 00:00:00,400\nsbexec\n' >subs.srt
	printf '1\n00:00:00,000 --> 00:00:00,400\ncaf\351\n' >subs1252.srt
}

# workload NAME|OPTIONS: one transcode of in.mp4 to NAME, then a probe.
workload() {
	local name=${1%%|*} opts=${1#*|}
	# shellcheck disable=SC2086 # OPTIONS split on purpose
	through ffmpeg -nostdin -v error -y -i in.mp4 $opts "$name" &&
		through ffprobe -v error -show_entries format=duration \
			-of csv=p=0 "$name"
}

@test "the workloads run as without sbexec under both backends' layers: probes, VP8, VP9, mp3, H.264, H.265, AV1 (three encoders, dav1d), opus, vorbis, scale, drawtext, libass, gconv, soxr, rubberband" {
	local mode w f
	for mode in direct $(host_modes); do
		at root "$mode"
		workload_inputs
		for w in "${WORKLOADS[@]}"; do
			run workload "$w"
			[ "$status" -eq 0 ] ||
				fail "$mode: ${w%%|*}: $output"
		done
		for f in in.mp4 scale.mkv vp8.webm; do
			run through ffprobe -v error -show_entries stream=codec_name \
				-of csv=p=0 "$f"
			assert_success
		done
		run through ffmpeg -nostdin -v error -c:v libdav1d -i aom.mkv -f null -
		assert_success
	done
}
