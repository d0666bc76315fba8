/* probe_dev: open each device node named on the command line for
 * reading and writing and, where it opens, make one real ioctl of its
 * driver; one line per node (used by test/devices.bats):
 *
 *	PATH=ERRNO			the open failed (ENOENT, EACCES...)
 *	PATH=OK kvm-api=12		/dev/kvm: KVM_GET_API_VERSION
 *	PATH=OK tun-features=0x...	/dev/net/tun: TUNGETFEATURES
 *	PATH=OK ioctl=ERRNO		the driver's ioctl failed
 *	PATH=OK				a node with no ioctl known here
 *
 * The driver is told by the node's device number, not its name, so that
 * a copy made with mknod elsewhere is probed alike.
 *
 *	probe_dev PATH...
 *
 * Built with -shared -fPIC -DPAYLOAD it is the code a hostile
 * "-af ladspa=file=" loads (test/payload.h): the paths are the lines of
 * ./payload.args.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define KVM_GET_API_VERSION _IO(0xAE, 0x00)	/* linux/kvm.h */
#define TUNGETFEATURES _IOR('T', 207, unsigned int)	/* linux/if_tun.h */

static void probe(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	unsigned int features = 0;
	struct stat st;
	long r;

	if (fd < 0 || fstat(fd, &st) < 0) {
		printf("%s=%s\n", path, strerrorname_np(errno));
		return;
	}
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(10, 232)) {
		r = ioctl(fd, KVM_GET_API_VERSION, 0);
		if (r >= 0)
			printf("%s=OK kvm-api=%ld\n", path, r);
	} else if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(10, 200)) {
		r = ioctl(fd, TUNGETFEATURES, &features);
		if (r >= 0)
			printf("%s=OK tun-features=%#x\n", path, features);
	} else {
		r = 0;
		printf("%s=OK\n", path);
	}
	if (r < 0)
		printf("%s=OK ioctl=%s\n", path, strerrorname_np(errno));
	close(fd);
}

static int run(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		probe(argv[i]);
	fflush(stdout);
	return 0;
}

#include "payload.h"
PROBE_MAIN(run, "payload")
