/* caps.h: root inside the Landlock sandbox holds no power of root
 * (DESIGN 12). */
#ifndef SBEXEC_CAPS_H
#define SBEXEC_CAPS_H

/* In the command's process, before no_new_privs and exec: no
 * capability in any set (bounding, ambient, permitted, effective,
 * inheritable), and securebits that keep exec from granting any back
 * to uid 0, locked. Without CAP_SETPCAP (a user) the bounding set and
 * securebits stay, which no_new_privs makes unusable; uid 0 without it
 * and with a bounding set that exec would grant from is refused. -1
 * with errno set and *WHAT naming the step. */
int caps_drop(const char **what);

#endif
