#!/usr/bin/env bats
# The census (issue 18, DESIGN 12): what native code in the sandbox can
# actually reach, listed from inside and compared with a short expected
# list, so that the next attack nobody thought of fails a test too.
#
# test/census.c is the enumerator; here it is loaded as an attacker
# loads code (helper.bash's attack: -af ladspa=file= loads the library
# from $XDIR, which the census's policies list in execPaths: under bwrap
# no writable mount is executable, test/noexec.bats). It runs on three
# backends:
#	bwrap		on the host, "sandbox": "bwrap"
#	landlock	on the host, "sandbox": "landlock"
#	container	inside test/in_container.c, "sandbox": "auto"
# each as root and as an unprivileged user (sbxcensus, made if absent; run
# through setpriv). The policy writes only ".", hides a secret and
# audits to a file. Each section's lines must equal the expected list
# exactly; and each section first has a positive control: the same
# census without sbexec finds something the sandbox must hide, so that a
# census cannot pass by finding nothing.
#
# The census runs once per backend and user; each test reads its
# output ($D/out/MODE-WHO.out, its stderr .err). Host objects the
# controls need (System V objects, a /dev/shm file, a POSIX message
# queue, a sleeping process of each user) live for the whole file.
# CENSUS_OUT=DIR keeps the outputs there.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export D CUID CGID KEY QNAME
	D=$(mktemp -d /tmp/sbxcensus.XXXXXX)
	chmod 755 "$D"
	mkdir -p "$D/out"
	build_census
	test_user
	make_samples
	make_ipc
	start_sleepers
}

teardown_file() {
	local f
	for f in "$D"/sleeper.*; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	[ -z "${KEY:-}" ] || ipc_objects remove "$KEY" "$QNAME"
	rm -f "/dev/shm/$QNAME"
	[ -z "${CENSUS_OUT:-}" ] || cp -r "$D/out/." "$CENSUS_OUT"
	rm -rf "$D" "${XDIR:-}"
}

# ============================================================ expected
# The expected lists, one place: what each section must find inside the
# sandbox (issue 18, after its fixes). expected SECTION MODE WHO prints
# them; MODE is bwrap, landlock or container (Landlock under in_container,
# "auto"); WHO is root or user. The order does not matter.

# Syscalls both backends' filters refuse whatever the arguments
# (tools/seccomp-gen.c: denied[], with issue 18's pidfd_getfd,
# process_madvise, kcmp and open_tree_attr; the socket family allow-list,
# which refuses family 0 and 1; socketpair without allowUnixSockets; the
# ioctl allow-list, which has neither request 0 nor 1); and the final
# layer's (final.c, issue 30): every exec after the command's own start
# and a memfd; its W^X rules take arguments that 0 and 1 are not.
DENIED_ALWAYS="execve execveat memfd_create memfd_secret ptrace process_vm_readv process_vm_writev keyctl add_key
	request_key bpf userfaultfd perf_event_open mount umount2 pivot_root
	kexec_load kexec_file_load init_module finit_module delete_module
	open_tree open_tree_attr move_mount fsopen fsconfig fsmount fspick
	mount_setattr io_uring_setup io_uring_enter io_uring_register setxattr lsetxattr
	fsetxattr setxattrat socket socketpair pidfd_getfd process_madvise
	kcmp ioctl"
# The Landlock variant's own: no new namespace (seccomp-gen.c), and issue
# 18's metadata, IPC and other-process rules.
DENIED_LANDLOCK="unshare setns chmod fchmod fchmodat fchmodat2 chown
	fchown lchown fchownat utime utimes utimensat futimesat removexattr
	lremovexattr fremovexattr removexattrat file_setattr shmget shmat
	shmctl shmdt semget semop semtimedop semctl msgget msgsnd msgrcv
	msgctl mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify
	mq_getsetattr pidfd_open ioprio_set ioprio_get"
# ... and those it refuses only for another process: with all arguments
# 1 (pid 1, or which 1 for getpriority and setpriority), not with 0.
# ioprio_get and ioprio_set are above: which 0 is not IOPRIO_WHO_PROCESS.
DENIED_LANDLOCK_PID="prlimit64 setpriority getpriority sched_setaffinity
	sched_getaffinity sched_setparam sched_getparam sched_setscheduler
	sched_getscheduler sched_setattr sched_getattr sched_rr_get_interval
	getpgid getsid migrate_pages move_pages get_robust_list"
# Rules that answer ENOSYS themselves (libc falls back), told apart by a
# direct call.
# Below Landlock ABI 6 (no signal scope) the Landlock variant refuses
# every signal; below ABI 3 (no truncate right) truncate(2) too.
DENIED_BELOW_ABI6="kill tkill tgkill rt_sigqueueinfo rt_tgsigqueueinfo
	pidfd_send_signal"
DENIED_BELOW_ABI3="truncate"
ENOSYS_ALWAYS="openat2"
ENOSYS_LANDLOCK="clone3"

# bwrap's --dev: its own devpts (/dev/ptmx is a link to pts/ptmx);
# /dev/tty fails with ENXIO (--new-session: no controlling terminal).
DEV_BWRAP="/dev/full rw
/dev/null rw
/dev/random rw
/dev/urandom rw
/dev/zero rw
/dev/pts/ptmx rw"
# Landlock grants back only these; no pts, ptmx, shm, loop, kvm...
DEV_LANDLOCK="/dev/full rw
/dev/null rw
/dev/zero rw
/dev/random r
/dev/urandom r"

# bwrap's pid 1 is its own init, the command's parent, of the same uid.
PROC_BWRAP="1 see,signal,pidfd,prlimit,renice,affinity,ioprio"

ZERO=0000000000000000

expected() {
	local sec=$1 mode=$2 who=$3
	"expected_$sec" "$mode" "$who"
}

# MODE-devices: the policy's "devices" lists DEVICES, which root opens
# beside the rest (a user cannot: they are 0600 root), and nothing more.
DEVICES="/dev/kvm /dev/net/tun"

expected_dev() {
	case $1 in
	bwrap*) printf '%s\n' "$DEV_BWRAP" ;;
	*) printf '%s\n' "$DEV_LANDLOCK" ;;
	esac | sed 's/^/dev /'
	[ "${1%-devices}" = "$1" ] || [ "$2" != root ] ||
		printf 'dev %s rw\n' $DEVICES
}

# No descriptor above 2: not the caller's (census_ff passes one), not
# sbexec's (a device's, the mount sources), not bwrap's.
expected_fd() {
	:
}

# What opens for writing: the writable device nodes, nothing in /proc or
# /sys; no directory of /dev takes a new entry.
expected_write() {
	expected_dev "$@" | awk '$3 ~ /w/ { print "write " $2 }'
}

# No metadata change outside allowWrite, on either backend.
expected_meta() {
	:
}

# The files of /proc that the Landlock backend grants (landlock.c's
# proc_files and self_files), fips_enabled where the kernel has it.
# bwrap's /proc is a fresh procfs of the sandbox's own PID and network
# namespaces: nearly all of it opens, and what it shows of the host is
# what any procfs shows, so no list is kept for it (its masks are
# escape2.bats's "what root reads").
expected_procfs() {
	[ "$1" != bwrap ] || return 0
	printf 'procfs %s\n' /proc/cpuinfo /proc/filesystems /proc/self/status
	[ ! -e /proc/sys/crypto/fips_enabled ] ||
		echo 'procfs /proc/sys/crypto/fips_enabled'
}

expected_proc() {
	[ "$1" != bwrap ] || echo "proc $PROC_BWRAP"
}

# No IPC object of the host: none at all.
expected_ipc() {
	:
}

# No capability; Landlock locks root's securebits (NOROOT,
# NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each locked:
# the kernel reports 0xef). A user keeps the bounding set it came with
# (dropping it needs CAP_SETPCAP; no_new_privs makes it unusable) and
# cannot set securebits.
expected_cap() {
	local mode=$1 who=$2 bnd=$ZERO bits=0x0
	if [ "$mode" != bwrap ]; then
		if [ "$who" = root ]; then
			bits=0xef
		else
			bnd=$(awk '$1 == "CapBnd:" { print $2 }' /proc/self/status)
		fi
	fi
	printf 'cap %s\n' "CapInh $ZERO" "CapPrm $ZERO" "CapEff $ZERO" \
		"CapBnd $bnd" "CapAmb $ZERO" "securebits $bits" "nnp 1" \
		"uid $(uid_of "$who")"
}

# network "none": bwrap's namespace has loopback (AF_INET, AF_INET6);
# Landlock has no family at all.
expected_family() {
	[ "$1" != bwrap ] || printf 'family %s\n' 2 10
}

expected_syscalls() {
	local n
	for n in $DENIED_ALWAYS; do echo "syscall-denied $n EPERM 0,1"; done
	for n in $ENOSYS_ALWAYS; do echo "syscall-enosys $n"; done
	[ "$1" != bwrap ] || return 0
	for n in $DENIED_LANDLOCK; do echo "syscall-denied $n EPERM 0,1"; done
	for n in $DENIED_LANDLOCK_PID; do echo "syscall-denied $n EPERM 1"; done
	for n in $ENOSYS_LANDLOCK; do echo "syscall-enosys $n"; done
	[ "$(landlock_abi)" -ge 6 ] ||
		for n in $DENIED_BELOW_ABI6; do echo "syscall-denied $n EPERM 0,1"; done
	[ "$(landlock_abi)" -ge 3 ] ||
		for n in $DENIED_BELOW_ABI3; do echo "syscall-denied $n EPERM 0,1"; done
}
# ioctl requests both backends' filters let through
# (tools/seccomp-gen.c, ioctls[]), by name: the census lists every
# request of its table with the value of one of these. Nothing passes
# with a high bit set.
IOCTL_ALLOWED="TCGETS TCSETS TCSETSW TIOCGWINSZ FIONREAD FIONBIO FIONCLEX
	FIOCLEX TCGETS2 TCSETS2 TCSETSW2"

# With devices (seccomp-gen.c's device_types[] and uvm_ioctls[]) also
# every request of these types (the byte at bits 8-15): DRM, dma-buf,
# sync_file, KVM, NVIDIA and its modeset; TUN's from number 200 ('T',
# the terminal's type, below); and nvidia-uvm's plain numbers (type 0,
# where FIBMAP and FIGETBSZ are too) with its two of 0x30000000.
IOCTL_DEVICE_TYPES="0x64 0x62 0x3e 0xae 0x46 0x6d"

# Under bwrap only the executable trees are mounted without noexec
# (issue 30): /usr, /bin, /sbin and /lib* where they are real
# directories, and the policy's execPaths ($XDIR); the command's own
# binary lies in /usr. The rest of the sandbox is noexec.
expected_exec() {
	local t
	for t in /usr /bin /sbin /lib /lib32 /lib64 /libx32; do
		[ ! -d "$t" ] || [ -L "$t" ] || echo "exec $t"
	done
	echo "exec $(realpath "$XDIR")"
}

# Only the executable trees map executable: the command's binary and
# libc, never a file written in the cwd (noexec under bwrap, refused by
# sbexec under Landlock).
expected_map() {
	echo "map exe"
	echo "map libc"
}

# Nothing starts once the command runs (final.c, issue 30): no shell,
# no interpreter, not the loader, not the command itself, by path or by
# descriptor.
expected_run() {
	:
}

expected_ioctl() {
	local dev=0
	[ "${1%-devices}" = "$1" ] || dev=1
	got direct "$2" ioctl | python3 -c 'import sys
names, dev, types = sys.argv[1].split(), sys.argv[2] == "1", sys.argv[3].split()
types = {int(t, 16) for t in types}
rows = [l.split() for l in sys.stdin if l.startswith("ioctl ")]
ok = {int(r[2], 16) for r in rows if r[1] in names}
def device(v):
    t, nr = (v >> 8) & 0xff, v & 0xff
    return t in types or (t == 0x54 and nr >= 200) or v < 0x100 or \
        v in (0x30000001, 0x30000002)
for r in rows:
    v = int(r[2], 16)
    if v in ok or (dev and device(v)):
        print(" ".join(r))' "$IOCTL_ALLOWED" "$dev" "$IOCTL_DEVICE_TYPES"
}
# ====================================================== end of expected

# ------------------------------------------------------------- set-up

# The census as a program and as the payload (helper.bash's attack
# loads $XDIR/payload.so, a tree every user can read that the census's
# policies list in execPaths), its syscall names from this
# host's <sys/syscall.h>, and the simulated container.
build_census() {
	local src="$BATS_TEST_DIRNAME/census.c" names="$D/census_names.h"
	local ioctls="$D/census_ioctls.h"
	local w="-Wall -Wextra -Wshadow -Wstrict-prototypes
		-Wmissing-prototypes -Wformat=2 -Werror"
	printf '#include <sys/syscall.h>\n' | gcc -dM -E - | awk '
		$1 == "#define" && $2 ~ /^__NR_/ && $3 ~ /^[0-9]+$/ {
			printf "\t{ %d, \"%s\" },\n", $3, substr($2, 6) }' \
		>"$names"
	ioctl_table "$ioctls"
	gcc $w -O2 -DCENSUS_NAMES="\"$names\"" -DCENSUS_IOCTLS="\"$ioctls\"" \
		-o "$D/census" "$src"
	gcc $w -Os -shared -fPIC -s -DPAYLOAD -DCENSUS_NAMES="\"$names\"" \
		-DCENSUS_IOCTLS="\"$ioctls\"" -o "$D/census.so" "$src"
	export XDIR
	XDIR=$(mktemp -d /tmp/sbxcensusx.XXXXXX)
	chmod 755 "$XDIR"
	cp "$D/census.so" "$XDIR/payload.so"
	build_in_container "$D/in_container"
}

# The uapi headers whose ioctl requests the census tries: files and
# filesystems (btrfs, fscrypt, fs-verity, FIEMAP), terminals and
# consoles, sockets, loop, floppy, CD-ROM and disk devices, namespaces,
# and the drivers "devices" reaches.
IOCTL_HEADERS="sys/ioctl.h linux/fs.h linux/btrfs.h linux/fscrypt.h
	linux/fsverity.h linux/fiemap.h linux/loop.h linux/sockios.h
	linux/if_tun.h linux/kvm.h linux/dma-buf.h linux/sync_file.h
	linux/nsfs.h linux/userfaultfd.h linux/seccomp.h linux/random.h
	linux/vt.h linux/kd.h linux/fd.h linux/cdrom.h linux/hdreg.h
	linux/perf_event.h linux/rtc.h linux/fuse.h"

# ioctl_table FILE: census.c's table of the requests those headers name
# (a macro made with _IO, _IOR, _IOW or _IOWR, or a terminal, socket,
# console or block number), without the few whose size needs a struct
# the headers leave incomplete (termios2: census.c adds its own).
ioctl_table() {
	local out=$1 bad
	{
		printf '#include <%s>\n' $IOCTL_HEADERS
		printf 'struct ioctl_req { unsigned long req; const char *name; };\n'
		printf 'static const struct ioctl_req header_ioctls[] = {\n'
		printf '#include <%s>\n' $IOCTL_HEADERS | gcc -dM -E - | awk '
		    $1 == "#define" && $2 !~ /\(/ &&
		    ($3 ~ /^_IO(R|W|WR)?\(/ ||
		     ($3 ~ /^0x(54|89|4[BbCc]|56|125)[0-9A-Fa-f]+$/ &&
		      $2 ~ /^(TC|TIO|FIO|SIOC|KD|VT_|GIO|PIO|BLK|LOOP_)/)) {
			print $2 }' | LC_ALL=C sort -u |
		    sed 's/.*/\t{ (unsigned long)(&), "&" },/'
		printf '};\n'
	} >"$out"
	bad=$(gcc -w -fsyntax-only -x c "$out" 2>&1 |
		sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: error.*/\1d/p' | sort -u)
	[ -z "$bad" ] || sed -i "$(echo $bad | tr ' ' ';')" "$out"
}

uid_of() {
	if [ "$1" = root ]; then echo 0; else echo "$CUID"; fi
}

# The meta section's samples, outside every allowWrite: a root-owned
# file and one of the user (the audit file of each run is the third).
make_samples() {
	mkdir -p "$D/meta"
	echo root >"$D/meta/root.txt"
	echo user >"$D/meta/user.txt"
	chmod 644 "$D/meta/root.txt" "$D/meta/user.txt"
	[ "$(id -u)" -ne 0 ] || chown "$CUID:$CGID" "$D/meta/user.txt"
}

# ipc_objects create|remove KEY NAME: a System V message queue, segment
# and semaphore set of KEY, and the POSIX message queue /NAME, all 0666.
ipc_objects() {
	python3 - "$@" <<-'EOF'
		import ctypes, ctypes.util, os, sys
		libc = ctypes.CDLL(None, use_errno=True)
		rt = ctypes.CDLL(ctypes.util.find_library("rt"), use_errno=True)
		op, key, name = sys.argv[1], int(sys.argv[2], 0), sys.argv[3]
		CREAT = 0o1000 | 0o2000 | 0o666		# IPC_CREAT | IPC_EXCL
		mq = ("/" + name).encode()
		if op == "create":
		    os.umask(0)
		    ids = [libc.msgget(key, CREAT), libc.shmget(key, 4096, CREAT),
		           libc.semget(key, 1, CREAT),
		           rt.mq_open(mq, os.O_CREAT | os.O_EXCL | os.O_RDWR,
		                      ctypes.c_uint(0o666), None)]
		    if min(ids) < 0:
		        sys.exit("ipc_objects: " + os.strerror(ctypes.get_errno()))
		else:
		    libc.msgctl(libc.msgget(key, 0), 0, None)	# IPC_RMID
		    libc.shmctl(libc.shmget(key, 0, 0), 0, None)
		    libc.semctl(libc.semget(key, 0, 0), 0, 0)
		    rt.mq_unlink(mq)
	EOF
}

# The IPC objects of the controls, and a /dev/shm file beside them.
make_ipc() {
	QNAME="sbxcensus.$$"
	KEY=$(printf '0x5bc%05x' $((RANDOM * 8 + RANDOM % 8)))
	ipc_objects create "$KEY" "$QNAME"
	echo shm >"/dev/shm/$QNAME"
	chmod 644 "/dev/shm/$QNAME"
}

# detach WHO CMD...: CMD as WHO in the background, as the pid $!, with
# no descriptor of bats (which waits for every copy of its pipes).
detach() {
	local who=$1
	shift
	(
		for fd in $(ls "/proc/$BASHPID/fd"); do
			[ "$fd" -le 2 ] || eval "exec $fd>&-"
		done
		exec $(setpriv_for "$who") "$@"
	) </dev/null >/dev/null 2>&1 &
}

# A process of each user, outside every census's tree; it ends by
# itself if teardown_file never runs.
start_sleepers() {
	local who
	for who in root user; do
		detach "$who" sleep 900
		echo $! >"$D/sleeper.$who"
	done
}

# ------------------------------------------------------------- running

# census_dir MODE WHO: the run's directory (owned by WHO): its policy,
# audit file, secret and work directory (the cwd, the only writable
# place).
census_dir() {
	local dir="$D/$2/$1" backend=${1%-devices} devices=
	[ "$backend" = "$1" ] ||
		devices=", \"devices\": [\"${DEVICES// /\", \"}\"]"
	[ "$backend" != container ] || backend=auto
	[ "$backend" != direct ] && [ "$backend" != container-direct ] ||
		backend=bwrap
	mkdir -p "$dir/work"
	echo secret >"$dir/secret.txt"
	: >"$dir/audit.jsonl"
	chmod 600 "$dir/audit.jsonl" "$dir/secret.txt"
	printf '%s\n' "{\"commands\": {\"ffmpeg\": \"/usr/bin/ffmpeg\"},
	  \"audit\": \"$dir/audit.jsonl\", \"sandbox\": \"$backend\",
	  \"execPaths\": [\"$XDIR\"],
	  \"network\": \"none\", \"filesystem\": {\"allowWrite\": [\".\"],
	  \"denyRead\": [\"$dir/secret.txt\"]} $devices}" >"$dir/policy.json"
	chmod 644 "$dir/policy.json"
	[ "$2" = root ] || [ "$(id -u)" -ne 0 ] ||
		chown -R "$CUID:$CGID" "$D/$2"
	echo "$dir"
}

# census_ff ARGS: ffmpeg ARGS as $WHO, the way $MODE says (attack's
# FFMPEG): without sbexec (direct, container-direct) or through it. The
# caller's descriptor 7 is open on a file: the fd section's control.
census_ff() {
	local p="$DIR/policy.json"
	case $MODE in
	direct) as "$WHO" ffmpeg "$@" ;;
	container-direct) as "$WHO" "$D/in_container" /usr/bin/ffmpeg "$@" ;;
	container*) as "$WHO" "$D/in_container" "$SBEXEC" -p "$p" ffmpeg "$@" ;;
	*) as "$WHO" "$SBEXEC" -p "$p" ffmpeg "$@" ;;
	esac 7<"$D/meta/root.txt"
}

# census MODE WHO: run the census there once; $D/out/MODE-WHO.out holds
# its lines, .err its stderr and exit status. With devices, only the
# sections devices change.
census() {
	local f="$D/out/$1-$2" MODE=$1 WHO=$2 DIR rc=0 only=
	[ ! -e "$f.out" ] || return 0
	DIR=$(census_dir "$1" "$2")
	[ "${1%-devices}" = "$1" ] || only="fd dev write ioctl"
	(cd "$DIR/work" && attack census_ff \
		"pidmax=$(cat /proc/sys/kernel/pid_max)" \
		"meta=$D/meta/root.txt" "meta=$D/meta/user.txt" \
		"meta=$DIR/audit.jsonl" "key=$KEY" "mq=/$QNAME" $only) \
		>"$f.out" 2>"$f.err" || rc=$?
	echo "census: exit $rc" >>"$f.err"
}

# section SECTION <OUT: the section's lines, sorted.
section() {
	local re="^$1 "
	case $1 in
	write) re='^(write|writedir) ' ;;
	syscalls) re='^syscall-' ;;
	ioctl) re='^ioctl(-hibits|-error)? ' ;;
	esac
	grep -E "$re" | LC_ALL=C sort || true
}

# got MODE WHO SECTION: the section's lines of that run.
got() {
	census "$1" "$2"
	section "$3" <"$D/out/$1-$2.out"
}

# ran MODE WHO SECTION: that run went through the section and exited 0,
# so that an empty list means found nothing, not never looked.
ran() {
	local err="$D/out/$1-$2.err"
	census "$1" "$2"
	grep -q "^census: $3: [0-9]* ms\$" "$err" &&
		grep -qx 'census: exit 0' "$err" && return 0
	echo "# the census did not run its $3 section ($1, $2):"
	cat "$err"
	return 1
}

needs() {
	local mode=$1 who=$2
	[ "$who" != root ] || [ "$(id -u)" -eq 0 ] ||
		skip "runs as root (the tests run as $(id -un))"
	case $mode in
	bwrap*|container*)
		[ -z "${CENSUS_ENGINE:-}" ] ||
			skip "in a real $CENSUS_ENGINE container the $mode mode does not apply (bwrap cannot set up there; the engine is the container)" ;;
	*-devices)
		[ -z "${CENSUS_ENGINE:-}" ] ||
			skip "a $CENSUS_ENGINE container's /dev has none of $DEVICES" ;;
	esac
	case $mode in
	*-devices)
		local n
		for n in $DEVICES; do
			[ -c "$n" ] || skip "no $n here"
		done ;;
	esac
	case $mode in
	landlock*|container*)
		[ "$(landlock_abi)" -ge 1 ] ||
			skip "the kernel has no Landlock" ;;
	esac
}

# merge_denied: the syscall lines read, one per call: a call refused by
# two filters (sbexec's, a container engine's) with each argument set is
# refused with their union.
merge_denied() {
	python3 -c 'import sys
args, other = {}, set()
for line in sys.stdin:
    f = line.split()
    if len(f) == 4 and f[0] == "syscall-denied":
        args.setdefault((f[1], f[2]), set()).update(f[3].split(","))
    elif f:
        other.add(line.strip())
for (name, err), a in args.items():
    other.add("syscall-denied %s %s %s" % (name, err, ",".join(sorted(a))))
for line in sorted(other):
    print(line)'
}

# engine_own WHO SECTION: what a container engine itself adds to what
# the command reaches, seen by the census without sbexec in the same
# container: the syscalls its profile refuses, and the files of /proc it
# masks with /dev/null (which write to /dev/null, as /dev/null does).
engine_own() {
	local p
	case $2 in
	syscalls) got direct "$1" syscalls ;;
	write)
		got direct "$1" write | while read -r _ p; do
			case $p in
			/proc/*|/sys/*)
				[ "$(stat -L -c %t:%T "$p")" != 1:3 ] ||
					echo "write $p" ;;
			esac
		done ;;
	esac
}

# check MODE WHO SECTION: the section's positive control, then its
# lines in the sandbox equal the expected list. In a real container
# engine (CENSUS_ENGINE, set by test/container.bats) the controls are
# the host's census on the same kernel; what the engine itself refuses
# (its seccomp profile) adds to the expected syscalls, found by the
# census run in the same container without sbexec.
check() {
	local mode=$1 who=$2 sec=$3 t="$BATS_TEST_TMPDIR"
	needs "$mode" "$who"
	if [ -z "${CENSUS_ENGINE:-}" ]; then
		"control_$sec" "$who"
	else
		ran direct "$who" "$sec"
	fi
	ran "$mode" "$who" "$sec"
	got "$mode" "$who" "$sec" >"$t/got"
	{
		expected "$sec" "$mode" "$who"
		[ -z "${CENSUS_ENGINE:-}" ] || engine_own "$who" "$sec"
	} | merge_denied | LC_ALL=C sort >"$t/want"
	if ! diff -u "$t/want" "$t/got" >"$t/diff"; then
		echo "# $sec, $mode, $who: - expected, + found"
		tail -n +3 "$t/diff"
		echo "# the census's stderr:"
		cat "$D/out/$mode-$who.err"
		return 1
	fi
}

# -------------------------------------------------- positive controls

# control_SECTION WHO: without sbexec, the census finds what the sandbox
# must hide (and the run itself worked).
direct() {
	needs direct "$1"
	ran direct "$1" "$2"
	run got direct "$1" "$2"
	[ -n "$output" ] || fail "the census without sbexec found no $2 line"
}

# The caller's descriptor 7 reaches a command run without sbexec.
control_fd() {
	direct "$1" fd
	assert_line "fd 7 $D/meta/root.txt"
}

control_dev() {
	direct "$1" dev
	if [ "$1" = root ]; then
		assert_line --regexp '^dev /dev/(loop[0-9]+|loop-control|kvm|fuse|mem|tty0) rw$'
	else
		assert_line 'dev /dev/ptmx rw'
	fi
}

control_procfs() {
	direct "$1" procfs
	assert_line 'procfs /proc/self/net/tcp'
	assert_line 'procfs /proc/self/mountinfo'
	assert_line 'procfs /proc/self/status'
}

control_write() {
	direct "$1" write
	[ "$1" != root ] || assert_line 'write /proc/sys/kernel/core_pattern'
	assert_line 'writedir /dev/shm'
}

# has_file_setattr: the kernel has file_setattr (Linux 6.17).
has_file_setattr() {
	python3 -c 'import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(468, -100, b"/", None, 0, 0)
sys.exit(ctypes.get_errno() == errno.ENOSYS)'
}

# has_user_xattr DIR: DIR's filesystem takes user.* xattrs (tmpfs only
# since Linux 6.6: the VM rig's 6.1 has a tmpfs upper under /tmp).
has_user_xattr() {
	python3 -c 'import os, sys, tempfile
f = tempfile.NamedTemporaryFile(dir=sys.argv[1])
try:
    os.setxattr(f.name, "user.census", b"1")
except OSError:
    sys.exit(1)' "$1"
}

control_meta() {
	local f="$D/meta/$1.txt" call xattr=lremovexattr
	direct "$1" meta
	has_user_xattr "$D/meta" || xattr=
	for call in fchmodat fchownat utimensat $xattr FS_IOC_SETFLAGS \
	    FS_IOC_FSSETXATTR; do
		assert_line "meta $call $f"
	done
	! has_file_setattr || assert_line "meta file_setattr $f"
}

control_proc() {
	direct "$1" proc
	assert_line "proc $(cat "$D/sleeper.$1") see,signal,pidfd,prlimit,renice,affinity,ioprio"
}

control_ipc() {
	local kind
	direct "$1" ipc
	for kind in sysv-msg sysv-shm sysv-sem; do
		assert_line "ipc $kind $KEY"
	done
	assert_line "ipc posix-shm $QNAME"
	assert_line "ipc mq /$QNAME"
}

control_cap() {
	direct "$1" cap
	assert_line 'cap nnp 0'
	if [ "$1" = root ]; then
		assert_line --regexp '^cap CapEff 0*[1-9a-f]'
	else
		assert_line --regexp '^cap CapBnd 0*[1-9a-f]'
	fi
}

control_family() {
	direct "$1" family
	assert_line 'family 1'
	assert_line 'family 16'
	[ "$1" != root ] || assert_line 'family 17'
}

# Without sbexec every request of the table passes, on each descriptor
# and with high bits set: the btrfs, fs-verity, fscrypt, ext4 and XFS
# ones, TIOCSTI.
control_ioctl() {
	local n
	direct "$1" ioctl
	for n in BTRFS_IOC_SNAP_CREATE_V2 BTRFS_IOC_SUBVOL_CREATE \
	    BTRFS_IOC_SUBVOL_SETFLAGS FS_IOC_ENABLE_VERITY \
	    FS_IOC_ADD_ENCRYPTION_KEY FS_IOC_SETFLAGS FS_IOC_FSSETXATTR \
	    EXT4_IOC_SWAP_BOOT XFS_IOC_FSGEOMETRY TIOCSTI TIOCLINUX \
	    LOOP_SET_FD TCGETS; do
		assert_line --regexp "^ioctl $n 0x[0-9a-f]+ file,dir,stdio\$"
		assert_line "ioctl-hibits $n hibits signext"
	done
	[ "$(grep -c '^ioctl ' <<<"$output")" -ge 300 ] ||
		fail "the census tried fewer than 300 ioctl requests"
}

# Without sbexec the mount of the census's own directory, where the
# cwd lies, is executable.
control_exec() {
	direct "$1" exec
	assert_line "exec $(stat -c %m "$D")"
}

# Without sbexec a file the command writes maps executable.
control_map() {
	direct "$1" map
	assert_line "map exe"
	assert_line "map cwd"
}

# Without sbexec a child of the command starts each program of the list.
control_run() {
	direct "$1" run
	assert_line "run /usr/bin/true"
	assert_line "run fd:/usr/bin/true"
	assert_line "run /bin/sh"
	assert_line "run /proc/self/exe"
}

# Without sbexec no syscall is refused; under in_container's filter
# (Docker's default profile, in part) exactly its rules show.
control_syscalls() {
	local n
	needs direct "$1"
	ran direct "$1" syscalls
	run got direct "$1" syscalls
	assert_output ''
	ran container-direct "$1" syscalls
	run got container-direct "$1" syscalls
	for n in mount pivot_root setns umount2 unshare; do
		assert_line "syscall-denied $n EPERM 0,1"
	done
	assert_line 'syscall-enosys clone3'
	[ "${#lines[@]}" -eq 6 ] || fail "in_container's filter: $output"
}

# ---------------------------------------------------------------- tests

@test "census controls: without sbexec, root and a user reach devices, /proc, files, processes, IPC, capabilities, families, ioctls, executable mounts and files, programs" {
	[ -z "${CENSUS_ENGINE:-}" ] ||
		skip "in a real $CENSUS_ENGINE container the controls are the host's census on this kernel"
	local who sec whos=user
	[ "$(id -u)" -ne 0 ] || whos="root user"
	for who in $whos; do
		for sec in fd dev procfs write meta proc ipc cap family syscalls ioctl exec map run; do
			"control_$sec" "$who"
		done
	done
}

@test "fd: bwrap, root: no descriptor above 2 reaches the command" { check bwrap root fd; }
@test "fd: bwrap, user: no descriptor above 2 reaches the command" { check bwrap user fd; }
@test "fd: landlock, root: no descriptor above 2 reaches the command" { check landlock root fd; }
@test "fd: landlock, user: no descriptor above 2 reaches the command" { check landlock user fd; }
@test "fd: container, root: no descriptor above 2 reaches the command" { check container root fd; }
@test "fd: container, user: no descriptor above 2 reaches the command" { check container user fd; }
@test "fd with devices: bwrap, root: no descriptor above 2, the device's neither" { check bwrap-devices root fd; }
@test "fd with devices: bwrap, user: no descriptor above 2, the device's neither" { check bwrap-devices user fd; }
@test "fd with devices: landlock, root: no descriptor above 2, the device's neither" { check landlock-devices root fd; }
@test "fd with devices: landlock, user: no descriptor above 2, the device's neither" { check landlock-devices user fd; }
@test "fd with devices: container, root: no descriptor above 2, the device's neither" { check container-devices root fd; }
@test "fd with devices: container, user: no descriptor above 2, the device's neither" { check container-devices user fd; }

@test "dev: bwrap, root: only bwrap's --dev nodes open" { check bwrap root dev; }
@test "dev: bwrap, user: only bwrap's --dev nodes open" { check bwrap user dev; }
@test "dev: landlock, root: only null, zero, full, random, urandom open" { check landlock root dev; }
@test "dev: landlock, user: only null, zero, full, random, urandom open" { check landlock user dev; }
@test "dev: container, root: only null, zero, full, random, urandom open" { check container root dev; }
@test "dev: container, user: only null, zero, full, random, urandom open" { check container user dev; }

@test "dev with devices: bwrap, root: bwrap's --dev nodes and the listed ones" { check bwrap-devices root dev; }
@test "dev with devices: bwrap, user: the listed nodes (0600 root) add nothing" { check bwrap-devices user dev; }
@test "dev with devices: landlock, root: null, zero, full, random, urandom and the listed ones" { check landlock-devices root dev; }
@test "dev with devices: landlock, user: the listed nodes (0600 root) add nothing" { check landlock-devices user dev; }
@test "dev with devices: container, root: null, zero, full, random, urandom and the listed ones" { check container-devices root dev; }
@test "dev with devices: container, user: the listed nodes (0600 root) add nothing" { check container-devices user dev; }
@test "procfs: landlock, root: only cpuinfo, filesystems, fips_enabled and its own status open" { check landlock root procfs; }
@test "procfs: landlock, user: only cpuinfo, filesystems, fips_enabled and its own status open" { check landlock user procfs; }
@test "procfs: container, root: only cpuinfo, filesystems, fips_enabled and its own status open" { check container root procfs; }
@test "procfs: container, user: only cpuinfo, filesystems, fips_enabled and its own status open" { check container user procfs; }

@test "write with devices: bwrap, root: the dev nodes and the listed ones, nothing else" { check bwrap-devices root write; }
@test "write with devices: landlock, root: the dev nodes and the listed ones, nothing else" { check landlock-devices root write; }
@test "write with devices: container, root: the dev nodes and the listed ones, nothing else" { check container-devices root write; }

@test "write: bwrap, root: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check bwrap root write; }
@test "write: bwrap, user: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check bwrap user write; }
@test "write: landlock, root: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check landlock root write; }
@test "write: landlock, user: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check landlock user write; }
@test "write: container, root: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check container root write; }
@test "write: container, user: nothing in /proc, /sys, /dev opens for writing but the dev nodes" { check container user write; }

@test "meta: bwrap, root: no mode, owner, times, xattr or flags change outside allowWrite" { check bwrap root meta; }
@test "meta: bwrap, user: no mode, owner, times, xattr or flags change outside allowWrite" { check bwrap user meta; }
@test "meta: landlock, root: no mode, owner, times, xattr or flags change outside allowWrite" { check landlock root meta; }
@test "meta: landlock, user: no mode, owner, times, xattr or flags change outside allowWrite" { check landlock user meta; }
@test "meta: container, root: no mode, owner, times, xattr or flags change outside allowWrite" { check container root meta; }
@test "meta: container, user: no mode, owner, times, xattr or flags change outside allowWrite" { check container user meta; }

@test "proc: bwrap, root: no process outside its tree but bwrap's init" { check bwrap root proc; }
@test "proc: bwrap, user: no process outside its tree but bwrap's init" { check bwrap user proc; }
@test "proc: landlock, root: no process outside its tree" { check landlock root proc; }
@test "proc: landlock, user: no process outside its tree" { check landlock user proc; }
@test "proc: container, root: no process outside its tree" { check container root proc; }
@test "proc: container, user: no process outside its tree" { check container user proc; }

@test "ipc: bwrap, root: no System V or POSIX IPC object of the host" { check bwrap root ipc; }
@test "ipc: bwrap, user: no System V or POSIX IPC object of the host" { check bwrap user ipc; }
@test "ipc: landlock, root: no System V or POSIX IPC object of the host" { check landlock root ipc; }
@test "ipc: landlock, user: no System V or POSIX IPC object of the host" { check landlock user ipc; }
@test "ipc: container, root: no System V or POSIX IPC object of the host" { check container root ipc; }
@test "ipc: container, user: no System V or POSIX IPC object of the host" { check container user ipc; }

@test "cap: bwrap, root: no capability, no_new_privs" { check bwrap root cap; }
@test "cap: bwrap, user: no capability, no_new_privs" { check bwrap user cap; }
@test "cap: landlock, root: no capability, securebits locked, no_new_privs" { check landlock root cap; }
@test "cap: landlock, user: no capability (the bounding set kept), no_new_privs" { check landlock user cap; }
@test "cap: container, root: no capability, securebits locked, no_new_privs" { check container root cap; }
@test "cap: container, user: no capability (the bounding set kept), no_new_privs" { check container user cap; }

@test "family: bwrap, root: network none creates AF_INET and AF_INET6 only" { check bwrap root family; }
@test "family: bwrap, user: network none creates AF_INET and AF_INET6 only" { check bwrap user family; }
@test "family: landlock, root: network none creates no socket" { check landlock root family; }
@test "family: landlock, user: network none creates no socket" { check landlock user family; }
@test "family: container, root: network none creates no socket" { check container root family; }
@test "family: container, user: network none creates no socket" { check container user family; }

@test "syscalls: bwrap, root: the filter refuses exactly the expected set" { check bwrap root syscalls; }
@test "syscalls: bwrap, user: the filter refuses exactly the expected set" { check bwrap user syscalls; }
@test "syscalls: landlock, root: the filter refuses exactly the expected set" { check landlock root syscalls; }
@test "syscalls: landlock, user: the filter refuses exactly the expected set" { check landlock user syscalls; }
@test "syscalls: container, root: the filter refuses exactly the expected set" { check container root syscalls; }
@test "syscalls: container, user: the filter refuses exactly the expected set" { check container user syscalls; }

@test "ioctl: bwrap, root: only the allow-list's requests pass, none with high bits" { check bwrap root ioctl; }
@test "ioctl: bwrap, user: only the allow-list's requests pass, none with high bits" { check bwrap user ioctl; }
@test "ioctl: landlock, root: only the allow-list's requests pass, none with high bits" { check landlock root ioctl; }
@test "ioctl: landlock, user: only the allow-list's requests pass, none with high bits" { check landlock user ioctl; }
@test "ioctl: container, root: only the allow-list's requests pass, none with high bits" { check container root ioctl; }
@test "ioctl: container, user: only the allow-list's requests pass, none with high bits" { check container user ioctl; }
@test "ioctl with devices: bwrap, root: the allow-list and the drivers' types" { check bwrap-devices root ioctl; }
@test "ioctl with devices: landlock, root: the allow-list and the drivers' types" { check landlock-devices root ioctl; }
@test "ioctl with devices: container, root: the allow-list and the drivers' types" { check container-devices root ioctl; }

@test "exec: bwrap, root: only the executable trees are mounted without noexec" { check bwrap root exec; }
@test "exec: bwrap, user: only the executable trees are mounted without noexec" { check bwrap user exec; }

@test "run: bwrap, root: nothing starts once the command runs" { check bwrap root run; }
@test "run: bwrap, user: nothing starts once the command runs" { check bwrap user run; }
@test "run: landlock, root: nothing starts once the command runs" { check landlock root run; }
@test "run: landlock, user: nothing starts once the command runs" { check landlock user run; }
@test "run: container, root: nothing starts once the command runs" { check container root run; }
@test "run: container, user: nothing starts once the command runs" { check container user run; }

@test "map: bwrap, root: only the system's files map executable, not one the command wrote" { check bwrap root map; }
@test "map: bwrap, user: only the system's files map executable, not one the command wrote" { check bwrap user map; }
@test "map: landlock, root: only the system's files map executable, not one the command wrote" { check landlock root map; }
@test "map: landlock, user: only the system's files map executable, not one the command wrote" { check landlock user map; }
@test "map: container, root: only the system's files map executable, not one the command wrote" { check container root map; }
@test "map: container, user: only the system's files map executable, not one the command wrote" { check container user map; }
