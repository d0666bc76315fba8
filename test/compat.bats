#!/usr/bin/env bats
# Drop-in fidelity (DESIGN 1, 5, 7): invocations taken from how scripts and
# libraries call ffprobe and ffmpeg, each run twice, with the real binary
# and through the sbexec symlink, must give the same exit status, the same
# stdout and, where asked, the same stderr.
#
# Both runs use the same relative paths: the real one runs in $W/real, the
# sandboxed one in $W/sbx, each holding its own copy of the sample, so
# messages that name files match and neither run sees the other's output.

load helper

WRITABLE=', "filesystem": {"allowWrite": ["."]}'

setup() {
	common_setup
	sample
	mkdir real sbx
	cp sample.mp4 real/
	cp sample.mp4 sbx/
	BG_PIDS=()
}

teardown() {
	local p
	for p in "${BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}

# same_as_real [-e|-l|-m] [-i FILE] [-p FILTER] [-k SECS] TOOL ARGS...
# Run /usr/bin/TOOL ARGS in $W/real and $BIN/TOOL ARGS in $W/sbx, stdout
# to $T/real.out and $T/sbx.out (through the shell pipeline FILTER if -p),
# stderr to $T/{real,sbx}.err, and assert: the same exit status, the same
# stdout, nothing from sbexec on stderr; with -e the same stderr, with -l
# the same last stderr line (log prefixes such as "[mov,mp4,... @ 0x55d...]"
# carry a heap address, which ASLR changes from run to run: it is masked).
# -m: 2>&1, stdout and stderr in one stream (compared as stdout).
# -i FILE: `cat FILE |` feeds stdin (else /dev/null).
# -k FILE: run in the background and send SIGINT a second after FILE
# (the output, in the side's directory) appears.
# Sets real_status.
same_as_real() {
	local errcmp='' in='' filter=cat kill_after='' side cmd st
	local redir='2>"$T/$side.err"'
	while :; do
		case $1 in
		-e) errcmp=all; shift ;;
		-l) errcmp=last; shift ;;
		-m) redir='2>&1'; shift ;;
		-i) in=$2; shift 2 ;;
		-p) filter=$2; shift 2 ;;
		-k) kill_after=$2; shift 2 ;;
		*) break ;;
		esac
	done
	local tool=$1
	shift
	for side in real sbx; do
		if [ "$side" = real ]; then cmd=/usr/bin/$tool; else cmd=$BIN/$tool; fi
		: >"$T/$side.err"
		(
			cd "$W/$side" || exit 99
			if [ -n "$kill_after" ]; then
				set -m # else the background job starts with SIGINT ignored
				"$cmd" "$@" </dev/null >"$T/$side.out" 2>"$T/$side.err" &
				# ffmpeg has its handlers once it has made its output
				# file, however loaded the machine is
				for _ in $(seq 200); do
					[ -e "$kill_after" ] && break
					sleep 0.1
				done
				sleep 1
				kill -INT $!
				wait $!
			elif [ -n "$in" ]; then
				eval 'cat -- "$in" | "$cmd" "$@" '"$redir"' |
					eval "$filter" >"$T/$side.out"; exit "${PIPESTATUS[1]}"'
			else
				eval '"$cmd" "$@" </dev/null '"$redir"' |
					eval "$filter" >"$T/$side.out"; exit "${PIPESTATUS[0]}"'
			fi
		) && st=0 || st=$?
		printf '%s\n' "$st" >"$T/$side.status"
	done
	real_status=$(cat "$T/real.status")
	assert_equal "$(cat "$T/sbx.status")" "$real_status"
	diff -u "$T/real.out" "$T/sbx.out"
	for side in real sbx; do
		sed 's/ @ 0x[0-9a-f]*\]/ @ 0x...]/g' "$T/$side.err" >"$T/$side.err.masked"
	done
	case $errcmp in
	all) diff -u "$T/real.err.masked" "$T/sbx.err.masked" ;;
	last) assert_equal "$(tail -n 1 "$T/sbx.err.masked")" "$(tail -n 1 "$T/real.err.masked")" ;;
	esac
	if grep -n sbexec "$T/sbx.err"; then
		fail "sbexec's own words on the command's stderr"
	fi
}

# same_output_file OUT ARGS...: ffmpeg ARGS OUT, both ways (same_as_real),
# must succeed and give files that ffprobe summarizes identically.
same_output_file() {
	local out=$1 side
	shift
	same_as_real ffmpeg "$@" "$out"
	assert_equal "$real_status" 0
	for side in real sbx; do
		(cd "$W/$side" && /usr/bin/ffprobe -v error -show_entries \
			stream=codec_name,width,height,nb_frames:format=duration \
			-of csv "$out") >"$T/$side.probe"
	done
	[ -s "$T/real.probe" ]
	diff -u "$T/real.probe" "$T/sbx.probe"
}

# --- ffprobe -----------------------------------------------------------

@test "ffprobe -show_format -show_streams -of json" {
	same_as_real -e ffprobe -v error -show_format -show_streams -of json sample.mp4
}

@test "ffprobe -of csv" {
	same_as_real -e ffprobe -v error -show_streams -of csv=p=0 sample.mp4
}

@test "ffprobe -of xml" {
	same_as_real -e ffprobe -v error -show_format -show_streams -of xml sample.mp4
}

@test "ffprobe -print_format flat" {
	same_as_real -e ffprobe -v error -show_format -show_streams -print_format flat sample.mp4
}

@test "ffprobe -count_frames -select_streams v:0 nb_read_frames" {
	same_as_real -e ffprobe -v error -count_frames -select_streams v:0 \
		-show_entries stream=nb_read_frames -of csv=p=0 sample.mp4
	assert_equal "$(cat "$T/sbx.out")" 10
}

@test "ffprobe -select_streams a -show_streams" {
	same_as_real -e ffprobe -v error -select_streams a -show_streams -of json sample.mp4
	grep -q '"codec_type": "audio"' "$T/sbx.out"
}

@test "ffprobe duration with -of default=nw=1:nk=1" {
	same_as_real -e ffprobe -v error -show_entries format=duration \
		-of default=nw=1:nk=1 sample.mp4
	assert_equal "$(cat "$T/sbx.out")" 1.000000
}

@test "ffprobe -show_packets -read_intervals %+#5" {
	same_as_real -e ffprobe -v error -show_packets -read_intervals %+#5 sample.mp4
	[ "$(grep -c '^\[PACKET\]' "$T/sbx.out")" -ge 5 ]
}

@test "ffprobe -show_frames -read_intervals %+#3" {
	same_as_real -e ffprobe -v error -show_frames -read_intervals %+#3 -of json sample.mp4
	grep -q '"media_type": "video"' "$T/sbx.out"
}

@test "ffprobe -show_error on a missing file: status, stdout and stderr" {
	same_as_real -e ffprobe -show_error missing.mp4
	assert_equal "$real_status" 1
	grep -q 'missing.mp4: No such file or directory' "$T/sbx.err"
}

@test "ffprobe -v quiet -print_format json -show_format on a text file" {
	for d in real sbx; do printf 'not a media file\n' >"$d/notes.txt"; done
	same_as_real -e ffprobe -v quiet -print_format json -show_format notes.txt
	assert_equal "$real_status" 1
}

@test "ffprobe reading stdin: cat sample | ffprobe -" {
	same_as_real -e -i sample.mp4 ffprobe -v error -show_format -show_streams -of json -
	grep -q '"codec_name": "mpeg4"' "$T/sbx.out"
}

@test "ffprobe -hide_banner: the same stderr, no version banner" {
	same_as_real -e ffprobe -hide_banner sample.mp4
	grep -q "Input #0, mov,mp4" "$T/sbx.err"
	if grep -q '^ffprobe version' "$T/sbx.err"; then fail "banner printed"; fi
}

@test "ffprobe with the banner: the whole stderr" {
	same_as_real -e ffprobe sample.mp4
	grep -q '^ffprobe version' "$T/sbx.err"
}

@test "ffprobe -loglevel error on a truncated file" {
	for d in real sbx; do head -c 7000 sample.mp4 >"$d/half.mp4"; done
	same_as_real -e ffprobe -loglevel error -show_format half.mp4
	assert_equal "$real_status" 1
	[ -s "$T/sbx.err" ]
}

# --- ffmpeg ------------------------------------------------------------

@test "ffmpeg thumbnail: -ss 0.5 -i in -frames:v 1 thumb.jpg" {
	policy "$WRITABLE"
	same_output_file thumb.jpg -ss 0.5 -i sample.mp4 -frames:v 1
	assert_equal "$(head -n 1 "$T/sbx.probe")" "stream,mjpeg,64,48,N/A"
}

@test "ffmpeg transcode to mp4 (libx264, else mpeg4)" {
	policy "$WRITABLE"
	local vc=mpeg4
	if ffmpeg -hide_banner -encoders 2>/dev/null | grep -q ' libx264 '; then vc=libx264; fi
	same_output_file out.mp4 -i sample.mp4 -c:v "$vc" -c:a aac
}

@test "ffmpeg transcode to webm (libvpx)" {
	policy "$WRITABLE"
	same_output_file out.webm -i sample.mp4 -c:v libvpx -b:v 100k -c:a libvorbis
}

@test "ffmpeg extract audio to mp3 (libmp3lame)" {
	policy "$WRITABLE"
	same_output_file out.mp3 -i sample.mp4 -vn -c:a libmp3lame -q:a 5
}

@test "ffmpeg extract audio to wav" {
	policy "$WRITABLE"
	same_output_file out.wav -i sample.mp4 -vn -ac 1 -ar 16000
	cmp real/out.wav sbx/out.wav
}

@test "ffmpeg to gif" {
	policy "$WRITABLE"
	same_output_file out.gif -i sample.mp4 -vf fps=5
}

@test "ffmpeg -f segment -segment_time 0.5: the same segments" {
	policy "$WRITABLE"
	same_as_real ffmpeg -i sample.mp4 -c:v mpeg4 -g 5 -c:a aac \
		-f segment -segment_time 0.5 seg%03d.ts
	assert_equal "$real_status" 0
	local n
	n=$(ls real/seg*.ts | wc -l)
	[ "$n" -gt 1 ]
	assert_equal "$(ls sbx/seg*.ts | wc -l)" "$n"
}

@test "ffmpeg -f hls: the same playlist and segments" {
	policy "$WRITABLE"
	same_as_real ffmpeg -i sample.mp4 -c:v mpeg4 -g 5 -c:a aac \
		-f hls -hls_time 0.5 -hls_list_size 0 list.m3u8
	assert_equal "$real_status" 0
	assert_equal "$(wc -l <sbx/list.m3u8)" "$(wc -l <real/list.m3u8)"
	[ "$(ls real/list*.ts | wc -l)" -gt 1 ]
	assert_equal "$(ls sbx/list*.ts | wc -l)" "$(ls real/list*.ts | wc -l)"
}

@test "ffmpeg -filter_complex hstack of two inputs" {
	policy "$WRITABLE"
	same_output_file stack.mp4 -i sample.mp4 -i sample.mp4 \
		-filter_complex '[0:v][1:v]hstack[v]' -map '[v]' -c:v mpeg4
	assert_equal "$(head -n 1 "$T/sbx.probe")" "stream,mpeg4,128,48,10"
}

@test "ffmpeg -f wav - to stdout: byte-identical (sha256sum)" {
	same_as_real -p sha256sum ffmpeg -i sample.mp4 -vn -map_metadata -1 \
		-fflags +bitexact -flags +bitexact -f wav -
	assert_equal "$real_status" 0
}

@test "ffmpeg -f framemd5 - to stdout: byte-identical" {
	same_as_real -e ffmpeg -nostdin -v error -i sample.mp4 -f framemd5 -
	[ "$(grep -vc '^#' "$T/sbx.out")" -ge 10 ]
}

@test "ffmpeg -progress pipe:1: the same keys on stdout" {
	same_as_real -p "grep -o '^[a-z0-9_]*=' | sort -u" \
		ffmpeg -nostdin -i sample.mp4 -progress pipe:1 -f null -
	grep -qx 'progress=' "$T/sbx.out"
}

@test "ffmpeg -nostdin with a stdin that holds data" {
	same_as_real -e -i sample.mp4 ffmpeg -nostdin -v error -i sample.mp4 -f null -
	assert_equal "$real_status" 0
}

@test "ffmpeg -i FILE with no output: the classic info call fails the same" {
	same_as_real -e ffmpeg -i sample.mp4
	assert_equal "$real_status" 1
	assert_equal "$(tail -n 1 "$T/sbx.err")" "At least one output file must be specified"
}

@test "ffmpeg SIGINT during an -re encode: same status, output readable" {
	policy "$WRITABLE"
	same_as_real -k cut.mp4 ffmpeg -re -f lavfi -i testsrc=size=64x48:rate=10 \
		-t 5 -c:v mpeg4 cut.mp4
	assert_equal "$real_status" 255
	grep -q 'received signal 2' "$T/sbx.err"
	for d in real sbx; do
		/usr/bin/ffprobe -v error -show_entries format=duration -of csv=p=0 "$d/cut.mp4"
	done
}

@test "ffmpeg unknown encoder: same status, same last stderr line" {
	policy "$WRITABLE"
	same_as_real -l ffmpeg -i sample.mp4 -c:v nosuchcodec out.mp4
	assert_equal "$real_status" 1
	grep -q "Unknown encoder 'nosuchcodec'" "$T/sbx.err"
}

@test "ffmpeg -version (first line) and ffprobe -version" {
	same_as_real -e ffmpeg -version
	grep -q '^ffmpeg version' <(head -n 1 "$T/sbx.out")
	same_as_real -e ffprobe -version
}

@test "ffmpeg -h and ffprobe -h: exit status and text" {
	same_as_real -e ffmpeg -h
	assert_equal "$real_status" 0
	same_as_real -e ffprobe -h
	assert_equal "$real_status" 0
}

@test "ffmpeg -loglevel error on a truncated file" {
	for d in real sbx; do head -c 7000 sample.mp4 >"$d/half.mp4"; done
	same_as_real -e ffmpeg -loglevel error -i half.mp4 -f null -
	assert_equal "$real_status" 1
	[ -s "$T/sbx.err" ]
}

@test "ffmpeg -stats progress reaches stderr while the command runs" {
	(cd sbx && exec "$BIN/ffmpeg" -nostdin -stats -re \
		-f lavfi -i testsrc=size=64x48:rate=10:duration=3 -f null - \
		</dev/null >/dev/null 2>"$T/sbx.err") &
	BG_PIDS+=($!)
	sleep 1.5
	local early running=yes
	early=$(tr '\r' '\n' <"$T/sbx.err")
	kill -0 "${BG_PIDS[0]}" || running=no
	wait "${BG_PIDS[0]}"
	assert_equal "$running" yes
	[[ $early == *frame=* || $early == *size=* ]] ||
		fail "no progress on stderr after 1.5 s: $early"
}

# --- both streams to one place, and a terminal -------------------------

@test "2>&1: stdout and stderr keep their order in the one stream" {
	# ffprobe writes its banner and error to stderr as they happen and its
	# [ERROR] section to stdout at exit: `out=$(ffprobe ... 2>&1)`.
	for i in $(seq 25); do
		same_as_real -m ffprobe -show_format -show_error missing.mp4
	done
	assert_equal "$(head -c 15 "$T/sbx.out")" "ffprobe version"
	assert_equal "$(tail -n 1 "$T/sbx.out")" "[/ERROR]"
}

# A terminal is passed to the command as it is (no pipe, no cap), and
# ffmpeg colours its messages when TERM says it may: the policy passes it.
@test "on a terminal, stderr is what the real one prints there" {
	local side cmd
	policy ', "envAllowList": ["PATH", "TERM"]'
	for side in real sbx; do
		if [ "$side" = real ]; then cmd=/usr/bin/ffprobe; else cmd=$BIN/ffprobe; fi
		# script's stdin stays open: at its EOF script sends the
		# terminal's EOF character, which races with sbexec's raw mode.
		(cd "$side" && TERM=xterm script -qec "$cmd -hide_banner missing.mp4" \
			/dev/null < <(sleep 5) >"$T/$side.tty") && st=0 || st=$?
		echo "$st" >>"$T/$side.tty"
	done
	diff -u <(cat -A "$T/real.tty") <(cat -A "$T/sbx.tty")
}
