/* netns.h: the proxy's listening socket, made inside the sandbox's
 * network namespace (DESIGN 11). */
#ifndef SBEXEC_NETNS_H
#define SBEXEC_NETNS_H

#include <sys/types.h>

#define PROXY_PORT 3128		/* on the sandbox's own 127.0.0.1 */
#define PROXY_PORT_STR "3128"

/* A listening socket on 127.0.0.1:PROXY_PORT in the network namespace
 * of PID, which must be the one bwrap reported (inode NS_INO) and not
 * sbexec's own. Made by a child that joins the namespace's user
 * namespace, then the namespace, and passes the socket back. Returns
 * it (non-blocking, close-on-exec), or -1 with the reason in *WHY. */
int netns_listen(pid_t pid, unsigned long long ns_ino, char **why);

#endif
