/* netns.c: a socket listening inside the sandbox. The sandbox's network
 * namespace holds loopback only; its 127.0.0.1:PROXY_PORT is the one way
 * out, and the socket behind it belongs to sbexec. setns(CLONE_NEWUSER)
 * wants a single-threaded caller that shares no memory: a forked child,
 * which exits once it has sent the socket over a socketpair. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "net/netns.h"
#include "util.h"

/* linux/nsfs.h and linux/sockios.h, which musl's headers do not carry. */
#define NS_GET_USERNS 0xb701
#define SIOCGSKNS 0x894C

#define HELPER_WAIT_MS 5000

static int listener(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
	    .sin_port = htons(PROXY_PORT),
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    listen(s, 64) < 0)
		return -1;
	return s;
}

/* In the child: join, listen, send the socket or what failed. */
static _Noreturn void helper(int netfd, int sock)
{
	char msg[128] = "";
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { msg, sizeof(msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	int userfd = ioctl(netfd, NS_GET_USERNS), s = -1;

	if (userfd < 0)
		fmt_snprintf(msg, sizeof(msg), "NS_GET_USERNS: %s",
		    strerror(errno));
	else if (!same_inode(userfd, "/proc/self/ns/user") &&
	    setns(userfd, CLONE_NEWUSER) < 0)
		fmt_snprintf(msg, sizeof(msg), "join its user namespace: %s",
		    strerror(errno));
	else if (setns(netfd, CLONE_NEWNET) < 0)
		fmt_snprintf(msg, sizeof(msg), "join it: %s", strerror(errno));
	else if ((s = listener()) < 0)
		fmt_snprintf(msg, sizeof(msg), "listen on 127.0.0.1:%d: %s",
		    PROXY_PORT, strerror(errno));
	if (s >= 0) {
		mh.msg_control = ctl;
		mh.msg_controllen = sizeof(ctl);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &s, sizeof(int));
	}
	_exit(sendmsg(sock, &mh, 0) < 0 || s < 0);
}

/* The helper's answer: a socket, or its reason copied to BUF. */
static int receive(int sock, char *buf, size_t len)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { buf, len - 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct pollfd p = { .fd = sock, .events = POLLIN };
	struct cmsghdr *cm;
	ssize_t n;
	int fd = -1;

	fmt_snprintf(buf, len, "the helper did not answer");
	if (poll(&p, 1, HELPER_WAIT_MS) <= 0 ||
	    (n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0)
		return -1;
	buf[n] = '\0';
	cm = CMSG_FIRSTHDR(&mh);
	if (cm != NULL && cm->cmsg_level == SOL_SOCKET &&
	    cm->cmsg_type == SCM_RIGHTS && cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The socket is a listener on 127.0.0.1:PROXY_PORT in namespace NS_INO. */
static const char *check_socket(int fd, unsigned long long ns_ino)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int on = 0, nsfd;
	socklen_t olen = sizeof(on);
	struct stat st;

	if (getsockname(fd, (struct sockaddr *)&sin, &len) < 0 ||
	    sin.sin_family != AF_INET || ntohs(sin.sin_port) != PROXY_PORT ||
	    sin.sin_addr.s_addr != htonl(INADDR_LOOPBACK) ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &olen) < 0 || !on)
		return "the socket passed back is not the listener asked for";
	nsfd = ioctl(fd, SIOCGSKNS);
	if (nsfd < 0 || fstat(nsfd, &st) < 0 || st.st_ino != ns_ino) {
		if (nsfd >= 0)
			close(nsfd);
		return "the socket passed back is not in the sandbox's network "
		    "namespace";
	}
	close(nsfd);
	return NULL;
}

static int open_ns(pid_t pid, unsigned long long ns_ino, char **why)
{
	char path[64];
	struct stat st;
	int fd;

	fmt_snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_ino != ns_ino ||
	    same_inode(fd, "/proc/self/ns/net")) {
		*why = xasprintf("the sandbox's network namespace is not the "
		    "one bwrap reported");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int netns_listen(pid_t pid, unsigned long long ns_ino, char **why)
{
	char msg[128];
	const char *bad;
	int sv[2], netfd, fd, st;
	pid_t child;

	if ((netfd = open_ns(pid, ns_ino, why)) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 ||
	    (child = fork()) < 0)
		die(EXIT_SBEXEC, "proxy helper");
	if (child == 0)
		helper(netfd, sv[1]);
	close(sv[1]);
	close(netfd);
	fd = receive(sv[0], msg, sizeof(msg));
	close(sv[0]);
	if (fd < 0)
		kill(child, SIGKILL);
	waitpid(child, &st, 0);
	if (fd >= 0 && (bad = check_socket(fd, ns_ino)) != NULL) {
		close(fd);
		fd = -1;
		fmt_snprintf(msg, sizeof(msg), "%s", bad);
	}
	if (fd < 0) {
		*why = xasprintf("the proxy's socket in the sandbox: %s", msg);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}
