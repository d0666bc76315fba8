/* caps.c: the Landlock backend has no user namespace, so when root runs
 * sbexec the command is uid 0 of the host with the caller's
 * capabilities (CapEff 000001fffeffffff under Docker's defaults: raw
 * block devices, chown, reboot, sethostname). bwrap drops them with
 * --cap-drop ALL; here the same is done by hand, in the order the
 * kernel needs: securebits and the bounding set while CAP_SETPCAP is
 * still held, then ambient, then the three sets of capset.
 * capabilities(7), "Capabilities and execution of programs by root". */
#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/caps.h"

/* linux/capability.h and linux/securebits.h, which musl does not carry. */
#define CAP_V3 0x20080522
#define CAP_SETPCAP_ 8
#define CAP_MAX 64			/* above every capability there is */
#define SECBIT_NOROOT_ (1 << 0)
#define SECBIT_NOROOT_LOCKED_ (1 << 1)
#define SECBIT_NO_SETUID_FIXUP_ (1 << 2)
#define SECBIT_NO_SETUID_FIXUP_LOCKED_ (1 << 3)
#define SECBIT_KEEP_CAPS_LOCKED_ (1 << 5)
#define SECBIT_NO_CAP_AMBIENT_RAISE_ (1 << 6)
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED_ (1 << 7)
#define SECURE_ALL (SECBIT_NOROOT_ | SECBIT_NOROOT_LOCKED_ | \
	SECBIT_NO_SETUID_FIXUP_ | SECBIT_NO_SETUID_FIXUP_LOCKED_ | \
	SECBIT_KEEP_CAPS_LOCKED_ | SECBIT_NO_CAP_AMBIENT_RAISE_ | \
	SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED_)
#define PR_CAP_AMBIENT_ 47
#define PR_CAP_AMBIENT_CLEAR_ALL_ 4

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static int effective(int cap)
{
	struct cap_header h = { CAP_V3, 0 };
	struct cap_data d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return 0;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

/* Is any capability left in the bounding set? The kernel's are numbered
 * from 0 without a gap: EINVAL is the first past its last. */
static int bounding_left(void)
{
	int in;

	for (int cap = 0; cap < CAP_MAX; cap++)
		if ((in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) != 0)
			return in == 1 || errno != EINVAL;
	return 0;
}

/* Securebits first: with SECBIT_NOROOT an exec by uid 0 grants nothing
 * from the bounding set, and once locked nothing can undo it. */
static int drop_bounding(const char **what)
{
	*what = "securebits";
	if (prctl(PR_SET_SECUREBITS, SECURE_ALL, 0, 0, 0) < 0)
		return -1;
	*what = "the capability bounding set";
	for (int cap = 0; cap < CAP_MAX; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return errno == EINVAL ? 0 : -1;
	return 0;
}

int caps_drop(const char **what)
{
	struct cap_header h = { CAP_V3, 0 };
	struct cap_data none[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

	if (effective(CAP_SETPCAP_) && drop_bounding(what) < 0)
		return -1;
	*what = "the ambient capabilities";
	if (prctl(PR_CAP_AMBIENT_, PR_CAP_AMBIENT_CLEAR_ALL_, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	*what = "capset";
	if (syscall(SYS_capset, &h, none) < 0)
		return -1;
	/* uid 0 would be given its bounding set back by exec. */
	*what = "the capability bounding set (uid 0 without CAP_SETPCAP)";
	if ((getuid() == 0 || geteuid() == 0) &&
	    !(prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) & SECBIT_NOROOT_) &&
	    bounding_left()) {
		errno = EPERM;
		return -1;
	}
	return 0;
}
