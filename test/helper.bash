# helper.bash: shared set-up for the bats suites. Every test runs the real
# sbexec binary against the real ffmpeg, ffprobe and bubblewrap.

bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
# make asan runs every suite against the sanitizer build instead.
SBEXEC="${SBEXEC:-$TOP/sbexec}"

# SBEXEC_BACKEND=landlock (make test runs the drop-in suite so): every
# policy of policy() names "sandbox": "landlock", and every sbexec runs
# inside test/in_container.c, where user namespaces are refused as in a
# default Docker container.
IN_CONTAINER="$BATS_RUN_TMPDIR/in_container"

# A fresh work directory (the cwd), a bin/ of symlinks to sbexec, and a
# policy whose audit goes to a file, so stderr is the command's own.
common_setup() {
	T="$BATS_TEST_TMPDIR"
	W="$T/work"
	BIN="$T/bin"
	AUDIT="$T/audit.jsonl"
	mkdir -p "$W" "$BIN"
	if [ "${SBEXEC_BACKEND:-}" = landlock ]; then
		[ "$(landlock_abi)" -ge 1 ] ||
			skip "the kernel has no Landlock"
		container_bin
	else
		ln -s "$SBEXEC" "$BIN/ffprobe"
		ln -s "$SBEXEC" "$BIN/ffmpeg"
	fi
	export SBEXEC_POLICY="$T/policy.json"
	cd "$W"
	policy
}

# landlock_abi: the running kernel's Landlock ABI (0: none), read once
# per run.
landlock_abi() {
	local f="$BATS_RUN_TMPDIR/landlock_abi"
	[ -s "$f" ] || python3 -c 'import ctypes
print(max(0, ctypes.CDLL(None).syscall(444, None, 0, 1)))' >"$f"
	cat "$f"
}

# build_in_container PATH: test/in_container.c, the simulated container,
# built at PATH.
build_in_container() {
	gcc -Wall -Wextra -Werror -o "$1" "$TOP/test/in_container.c" -lseccomp
}

# container_bin: $BIN/NAME runs $T/links/NAME -> sbexec inside the
# simulated container (built once per run).
container_bin() {
	local name
	[ -x "$IN_CONTAINER" ] || build_in_container "$IN_CONTAINER"
	mkdir -p "$T/links"
	for name in ffprobe ffmpeg; do
		ln -sfn "$SBEXEC" "$T/links/$name"
		rm -f "$BIN/$name"
		printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$IN_CONTAINER" \
			"$T/links/$name" >"$BIN/$name"
		chmod +x "$BIN/$name"
	done
}

# policy [EXTRA]: the base policy with EXTRA members (JSON, starting with
# a comma) appended to the top-level object. $XDIR or $BATS_FILE_TMPDIR, where
# build_probes puts the probes and the payload, is an executable tree
# (execPaths): the containment suites need native code inside, which
# no writable directory may give them (DESIGN 13). XDIR set but empty:
# none (a user's runs cannot walk bats's 0700 directories, and sbexec
# refuses a tree it cannot check).
policy() {
	local backend= x=${XDIR-$BATS_FILE_TMPDIR} trees=
	[ -z "${SBEXEC_BACKEND:-}" ] ||
		backend=", \"sandbox\": \"$SBEXEC_BACKEND\""
	[ -z "$x" ] || trees="\"execPaths\": [\"$x\"],"
	write_policy "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\",
	  \"ffmpeg\": $(ffmpeg_command), \"sh\": $(sh_programs "$x")},
	  $trees \"audit\": \"$AUDIT\" $backend ${1:-}}"
}

# ffmpeg_command: ffmpeg, which starts nothing; with FFMPEG_PROGRAMS (a
# JSON array) it may start those, for a test whose native code in
# ffmpeg runs a client program (net.bats).
ffmpeg_command() {
	if [ -n "${FFMPEG_PROGRAMS:-}" ]; then
		printf '{"path": "/usr/bin/ffmpeg", "programs": %s}' \
			"$FFMPEG_PROGRAMS"
	else
		printf '"/usr/bin/ffmpeg"'
	fi
}

# sh_programs [TREE]: the test shell as a command of its own, which may
# start the system's programs (and TREE's): every other command starts
# nothing (final.c).
sh_programs() {
	printf '{"path": "/bin/sh", "programs": ["/usr"%s]}' "${1:+, \"$1\"}"
}

# write_policy JSON: the policy file, exactly, with safe permissions.
write_policy() {
	printf '%s\n' "$1" >"$SBEXEC_POLICY"
	chmod 644 "$SBEXEC_POLICY"
}

# sample [NAME]: a small mp4 made once per file and copied into the cwd.
sample() {
	local name=${1:-sample.mp4}
	if [ ! -f "$BATS_FILE_TMPDIR/sample.mp4" ]; then
		ffmpeg -nostdin -v error -f lavfi \
			-i testsrc=duration=1:size=64x48:rate=10 \
			-f lavfi -i sine=duration=1 -shortest \
			-c:v mpeg4 -c:a aac "$BATS_FILE_TMPDIR/sample.mp4"
	fi
	cp "$BATS_FILE_TMPDIR/sample.mp4" "$W/$name"
}

# sbx ARGS: the explicit form; "$BIN/NAME" ARGS: the symlink form.
sbx() {
	if [ "${SBEXEC_BACKEND:-}" = landlock ]; then
		"$IN_CONTAINER" "$SBEXEC" "$@"
	else
		"$SBEXEC" "$@"
	fi
}

# landlock: true when the suite runs under the Landlock backend.
landlock() {
	[ "${SBEXEC_BACKEND:-}" = landlock ]
}

# sh_in_sandbox SCRIPT: run a shell script inside the sandbox (the test
# policy lists /bin/sh as command "sh"; only tests use that).
sh_in_sandbox() {
	sbx sh -c "$1"
}

# last_audit TYPE: the last audit record of that type, checked as JSON.
last_audit() {
	grep "\"type\":\"$1\"" "$AUDIT" | tail -n 1 |
		python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.read())))'
}

# audit_get TYPE EXPR: EXPR (Python, over the record r) evaluated on the
# last audit record of TYPE, printed as JSON; fails if the file is not
# JSONL.
audit_get() {
	python3 - "$AUDIT" "$1" "$2" <<-'EOF'
		import json, sys
		recs = [json.loads(line) for line in open(sys.argv[1])]
		r = [x for x in recs if x["type"] == sys.argv[2]][-1]
		print(json.dumps(eval(sys.argv[3])))
	EOF
}

# build_probes [NAME] (in setup_file): the probe of test/NAME.c
# (probe_syscalls), the same source built as the library a hostile
# "-af ladspa=file=" loads, and that library as a data: URI.
build_probes() {
	local name=${1:-probe_syscalls}
	local src="$BATS_TEST_DIRNAME/$name.c"
	export HOST_SOCK="$BATS_FILE_TMPDIR/host.sock"
	gcc -Wall -Wextra -Werror -o "$BATS_FILE_TMPDIR/$name" "$src"
	gcc -Wall -Wextra -Werror -shared -fPIC -s -DPAYLOAD \
		-o "$BATS_FILE_TMPDIR/payload.so" "$src"
	base64 -w0 "$BATS_FILE_TMPDIR/payload.so" >"$BATS_FILE_TMPDIR/payload.b64"
}

# attack FFMPEG PROBE...: native code inside. FFMPEG (ffmpeg for the
# attack without sbexec, "$BIN/ffmpeg" or a function through it) loads
# payload.so as a LADSPA plugin; the probes' answers are the output.
# argv alone wrote it from a data: URI into the cwd and loaded it there
# until the bwrap sandbox made every writable mount noexec (that route
# is test/noexec.bats'); the payload now comes from the tree policy()
# marks executable, so that containment stays tested against code
# running as the command. XDIR, when set, is that tree instead (one
# outside /tmp, for privateTmp).
attack() {
	local ff=$1
	shift
	printf '%s\n' "$@" >payload.args
	"$ff" -nostdin -v error -f lavfi -i anullsrc \
		-af "ladspa=file=${XDIR:-$BATS_FILE_TMPDIR}/payload.so" -t 0.1 \
		-f null -
}

# kill_pids: end each process a test started in the background (PIDS)
# with the children it started, and reap it.
kill_pids() {
	local pid
	for pid in "${PIDS[@]}"; do
		pkill -P "$pid" 2>/dev/null || true
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}

# test_user (in setup_file): CUID and CGID, the unprivileged user the
# suites run as beside root: sbxcensus when root runs the tests (made if
# absent; it may stay), else the invoking user.
test_user() {
	export CUID CGID
	if [ "$(id -u)" -eq 0 ]; then
		id sbxcensus >/dev/null 2>&1 ||
			useradd -M -s /usr/sbin/nologin sbxcensus
		CUID=$(id -u sbxcensus)
		CGID=$(id -g sbxcensus)
	else
		CUID=$(id -u)
		CGID=$(id -g)
	fi
}

# setpriv_for WHO (root or user): the setpriv prefix that runs a command
# as WHO; none for root, or when the tests do not run as root.
setpriv_for() {
	[ "$1" = root ] || [ "$(id -u)" -ne 0 ] ||
		echo "setpriv --reuid=$CUID --regid=$CGID --clear-groups --"
}

# host_modes: bwrap, and Landlock where the kernel has it (both on the
# host), for a file that runs each backend itself.
host_modes() {
	echo bwrap
	[ "$(landlock_abi)" -lt 1 ] || echo landlock
}

# needs_who WHO: skip a root test when the tests do not run as root.
needs_who() {
	[ "$1" != root ] || [ "$(id -u)" -eq 0 ] ||
		skip "runs as root (the tests run as $(id -un))"
}

# as WHO CMD...: CMD as WHO.
as() {
	local who=$1
	shift
	$(setpriv_for "$who") "$@"
}

# with_dev_log SOCKET CMD...: run CMD (as root) in a private mount
# namespace whose /dev holds the usual nodes and, when SOCKET is not
# empty, a /dev/log that leads to SOCKET: whether the host has a syslog
# socket decides nothing.
with_dev_log() {
	unshare -m --propagation private sh -c '
		set -e
		mkdir -p "$0/hostdev"
		mount --rbind /dev "$0/hostdev"
		mount -t tmpfs tmpfs /dev
		for n in null zero full random urandom tty; do
			touch "/dev/$n"; mount --bind "$0/hostdev/$n" "/dev/$n"
		done
		[ -z "$1" ] || ln -s "$1" /dev/log
		shift; exec "$@"' "$T" "$@"
}
