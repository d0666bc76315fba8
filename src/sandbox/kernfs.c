/* kernfs.c: what of /proc and /sys the command may not write or read.
 * When root runs sbexec, uid 0 in the sandbox is uid 0 of the host, and
 * a sysctl file needs only its owner's write bit: core_pattern set to a
 * pipe runs a program of the command's choosing as the host's root.
 * bwrap covers /proc/sys only when access(W_OK) succeeds on it, which
 * the kernel always refuses for that directory, so sbexec covers them
 * itself. runc's default readonlyPaths and maskedPaths are the list
 * weighed (libcontainer/specconv/example.go): its read-only ones are
 * taken whole; of its masks, those uid 0 reads without a capability
 * (the mode is its only guard), plus the physical page maps and the
 * kernel's debug and trace trees when the host mounts them under /sys.
 * Left out, with why: /proc/kmsg, /proc/kallsyms, /proc/kcore, /proc/mtrr
 * and /proc/scsi need CAP_SYSLOG, CAP_SYS_RAWIO or CAP_SYS_ADMIN, none
 * of which the command holds; /sys is read-only already. */
#include <string.h>
#include <sys/stat.h>

#include "sandbox/kernfs.h"

/* Written by uid 0 with no capability: the kernel's tunables (sysctl,
 * binfmt_misc below it), SysRq, IRQ affinity, PCI and USB config space,
 * filesystem tunables (/proc/fs/nfsd...), pressure triggers. */
static const char *const read_only[] = {
	"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus",
	"/proc/fs",
	/* Mode 0666: a write makes a PSI trigger, a kernel object that
	 * watches the host's pressure (any user may, since Linux 6.5). Not
	 * in runc's lists; found by test/census.bats. */
	"/proc/pressure",
	/* Mode 0644 where the kernel has CONFIG_DYNAMIC_DEBUG (Debian's
	 * do; this host's does not): a write turns on any pr_debug of the
	 * kernel and its modules, flooding the host's log and leaking
	 * pointers there. Found by census.bats in the VM rig's 6.1 and
	 * 6.12. */
	"/proc/dynamic_debug",
};

/* Read by uid 0 with no capability: timers and their owners, keys'
 * descriptions, physical page flags (a Rowhammer aid), the scheduler's
 * and latency debug state, ACPI and sound hardware, the firmware's
 * tables, power meters (PLATYPUS), debugfs and tracefs. */
static const char *const masked[] = {
	"/proc/keys", "/proc/timer_list", "/proc/timer_stats",
	"/proc/sched_debug", "/proc/latency_stats", "/proc/kpagecount",
	"/proc/kpageflags", "/proc/kpagecgroup", "/proc/acpi", "/proc/asound",
	"/sys/firmware", "/sys/devices/virtual/powercap", "/sys/kernel/debug",
	"/sys/kernel/tracing", "/sys/kernel/security",
};

#define N(a) (sizeof(a) / sizeof(*(a)))

static void emit_read_only(struct strv *out, struct expect *e)
{
	struct stat st;

	for (size_t i = 0; i < N(read_only); i++)
		if (lstat(read_only[i], &st) == 0) {
			strv_add(out, "--ro-bind", read_only[i], read_only[i]);
			expect_cover(e, read_only[i], EXPECT_BIND, st.st_dev,
			    st.st_ino);
		}
}

/* A masked directory is an empty tmpfs, read-only once made (it holds
 * no RAM); a file is /dev/null. */
static void emit_masked(struct strv *out, struct expect *e)
{
	struct stat st;

	for (size_t i = 0; i < N(masked); i++) {
		if (lstat(masked[i], &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			strv_add(out, "--tmpfs", masked[i], NULL);
			strv_add(out, "--remount-ro", masked[i], NULL);
			expect_cover(e, masked[i], EXPECT_TMPFS, 0, 0);
		} else {
			strv_add(out, "--ro-bind", "/dev/null", masked[i]);
			expect_cover(e, masked[i], EXPECT_NULL, 0, 0);
		}
	}
}

void kernfs_emit(struct strv *out, struct expect *e)
{
	emit_read_only(out, e);
	emit_masked(out, e);
}

const char *const *kernfs_hidden_sys(size_t *n)
{
	size_t i = 0;

	while (strncmp(masked[i], "/sys/", 5) != 0)
		i++;
	*n = N(masked) - i;
	return masked + i;
}
