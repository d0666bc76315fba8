/* mapwatch.c: under Landlock there is no mount namespace, so no noexec
 * mount keeps a file the command may read (the upload, its stdin, what
 * a data: URI wrote) from being mapped executable and run: "-af
 * ladspa=file=./x.so" would load it. So every mmap of a file with
 * PROT_EXEC waits on sbexec (seccomp user notification), which looks at
 * the file the descriptor names and lets the call go on only for one in
 * an executable tree (noexec.c's: /usr, /bin, /sbin, /lib*, execPaths,
 * the command's binary); else EPERM, as a noexec mount answers.
 * mprotect adding PROT_EXEC is refused outright by W^X (final.c).
 *
 * Sound against argv, media and stdin: the loader holds the descriptor
 * until the mapping is made and no code of the attacker's runs before
 * it. Not against code already running, whose other thread can put
 * another file at the descriptor's number after the look (SECURITY.md).
 * Each library the command loads costs a round trip to sbexec
 * (BENCHMARKS.md). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt.h"
#include "path.h"
#include "sandbox/mapwatch.h"
#include "sandbox/noexec.h"

/* The kernel's (linux/seccomp.h), which musl's headers do not carry. */
#define NOTIF_RECV ((int)0xc0502100U)	/* musl: an int request */
#define NOTIF_SEND ((int)0xc0182101U)
#define NOTIF_ID_VALID 0x40082102
#define NOTIF_SET_FLAGS 0x40082104
#define FD_SYNC_WAKE_UP 1ULL
#define FLAG_CONTINUE 1U
#define FLAG_NEW_LISTENER 8U
#define SET_MODE_FILTER 1U
#define RET_USER_NOTIF 0x7fc00000U
#define RET_ALLOW 0x7fff0000U

struct notif {
	uint64_t id;
	uint32_t pid, flags;
	int32_t nr;
	uint32_t arch;
	uint64_t ip, args[6];
};

struct notif_resp {
	uint64_t id;
	int64_t val;
	int32_t error;
	uint32_t flags;
};

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct fprog {
	unsigned short len;
	const struct insn *filter;
};

int mapwatch_pair(int *parent, int *child)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	*parent = sv[0];
	*child = sv[1];
	return 0;
}

/* mmap (arguments prot, 2, and flags, 3) of a file, executable. */
int mapwatch_install(int sock)
{
	static const struct insn prog[] = {
		{ 0x20, 0, 0, 0 },			/* ld nr */
		{ 0x15, 0, 5, SYS_mmap },		/* jeq mmap */
		{ 0x20, 0, 0, 16 + 8 * 2 },		/* ld prot */
		{ 0x45, 0, 3, PROT_EXEC },		/* jset exec */
		{ 0x20, 0, 0, 16 + 8 * 3 },		/* ld flags */
		{ 0x45, 1, 0, MAP_ANONYMOUS },		/* jset anon */
		{ 0x06, 0, 0, RET_USER_NOTIF },
		{ 0x06, 0, 0, RET_ALLOW },
	};
	struct fprog fp = { sizeof(prog) / sizeof(*prog), prog };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { "l", 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd, rc;

	fd = (int)syscall(SYS_seccomp, SET_MODE_FILTER, FLAG_NEW_LISTENER,
	    &fp);
	if (fd < 0)
		return -1;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	rc = sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
	close(fd);
	close(sock);
	return rc;
}

void mapwatch_init(struct mapwatch *m, int sock, const struct policy *pol,
    const struct command *cmd)
{
	*m = (struct mapwatch){ .sock = sock, .listener = -1 };
	if (sock >= 0)
		noexec_trees(pol, cmd, &m->trees);
}

int mapwatch_fd(const struct mapwatch *m)
{
	return m->listener >= 0 ? m->listener : m->sock;
}

/* The listener, sent once by the command's process. */
static void take_listener(struct mapwatch *m)
{
	char cbuf[CMSG_SPACE(sizeof(int))], b;
	struct iovec iov = { &b, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(m->sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	c = n == 1 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (c != NULL && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int))) {
		memcpy(&m->listener, CMSG_DATA(c), sizeof(int));
		/* 6.6 and later: the command's process, which waits for the
		 * answer, hands its CPU to sbexec and is handed it back, with
		 * no wake-up across CPUs for either (EINVAL before). */
		(void)ioctl(m->listener, NOTIF_SET_FLAGS, FD_SYNC_WAKE_UP);
	}
	/* The command's process sends one, or dies before: either way
	 * the socket has served. */
	close(m->sock);
	m->sock = -1;
}

/* 1 when the descriptor of request N names a file in one of the trees,
 * looked at while the request is still live (its PID not reused). A
 * directory, socket or device in them maps nothing executable. */
static int allowed(const struct mapwatch *m, const struct notif *n)
{
	char link[64], path[PATH_MAX];
	ssize_t len;
	int ok = 0;

	fmt_snprintf(link, sizeof(link), "/proc/%u/fd/%d", n->pid,
	    (int)n->args[4]);
	len = readlink(link, path, sizeof(path) - 1);
	if (len <= 0 || path[0] != '/' ||
	    ioctl(m->listener, NOTIF_ID_VALID, &n->id) < 0)
		return 0;
	path[len] = '\0';
	for (size_t i = 0; !ok && i < m->trees.n; i++)
		ok = path_within(path, m->trees.v[i]);
	return ok;
}

void mapwatch_on(struct mapwatch *m, short revents)
{
	struct notif n = { 0 };
	struct notif_resp r = { 0 };

	if (m->listener < 0) {
		take_listener(m);
		return;
	}
	/* Every process of the run gone: POLLHUP. Before Linux 6.x a
	 * receive would then wait for ever; never ask without POLLIN. */
	if (!(revents & POLLIN)) {
		close(m->listener);
		m->listener = -1;
		return;
	}
	if (ioctl(m->listener, NOTIF_RECV, &n) < 0) {
		/* ENOENT: the caller died meanwhile. Anything else: the
		 * filter is gone, every process of the run with it. */
		if (errno != ENOENT && errno != EINTR) {
			close(m->listener);
			m->listener = -1;
		}
		return;
	}
	r.id = n.id;
	if (allowed(m, &n)) {
		r.flags = FLAG_CONTINUE;
	} else {
		r.error = -EPERM;
		m->refused++;
	}
	(void)ioctl(m->listener, NOTIF_SEND, &r);
}

void mapwatch_free(struct mapwatch *m)
{
	if (m->sock >= 0)
		close(m->sock);
	if (m->listener >= 0)
		close(m->listener);
	strv_free(&m->trees);
	m->sock = m->listener = -1;
}
