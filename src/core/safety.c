/*
 * Is a block device in use? A device counts as used when it or any of its
 * partitions is mounted (/proc/self/mountinfo), is an active swap area
 * (/proc/swaps), or has holders in sysfs (LVM, md, dm-crypt, bcache...).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "safety.h"

#define MAX_DEVS 256

struct dev {
    unsigned major, minor;
    char name[NAME_MAX + 1];
};

/* The device itself plus every partition sysfs lists under it. */
static int collect(unsigned major, unsigned minor, struct dev *out, int max)
{
    char path[PATH_MAX], real[PATH_MAX];
    int n = 0;
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u", major, minor);
    out[n].major = major;
    out[n].minor = minor;
    snprintf(out[n].name, sizeof out[n].name, "%u:%u", major, minor);
    if (!realpath(path, real))
        return 1;
    const char *base = strrchr(real, '/');
    const char *nm = base ? base + 1 : real;
    size_t nl = strnlen(nm, NAME_MAX);
    memcpy(out[n].name, nm, nl);
    out[n].name[nl] = '\0';
    n++;
    DIR *d = opendir(real);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        char f[PATH_MAX + 300];
        unsigned ma, mi;
        snprintf(f, sizeof f, "%s/%s/partition", real, e->d_name);
        struct stat st;
        if (e->d_name[0] == '.' || stat(f, &st) < 0)
            continue;
        snprintf(f, sizeof f, "%s/%s/dev", real, e->d_name);
        FILE *fp = fopen(f, "r");
        if (!fp)
            continue;
        if (fscanf(fp, "%u:%u", &ma, &mi) == 2) {
            out[n].major = ma;
            out[n].minor = mi;
            memcpy(out[n].name, e->d_name, sizeof out[n].name);
            n++;
        }
        fclose(fp);
    }
    closedir(d);
    return n;
}

static int mounted(const struct dev *d, char *why, size_t len)
{
    FILE *fp = fopen("/proc/self/mountinfo", "r");
    if (!fp)
        return 0;
    char line[4096];
    int busy = 0;
    while (!busy && fgets(line, sizeof line, fp)) {
        unsigned ma, mi;
        char mnt[PATH_MAX];
        /* id parent major:minor root mount-point ... */
        if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &ma, &mi, mnt) == 3 && ma == d->major &&
            mi == d->minor) {
            snprintf(why, len, "/dev/%s is mounted on %s", d->name, mnt);
            busy = 1;
        }
    }
    fclose(fp);
    return busy;
}

static int swapping(const struct dev *d, char *why, size_t len)
{
    FILE *fp = fopen("/proc/swaps", "r");
    if (!fp)
        return 0;
    char line[4096], name[PATH_MAX];
    int busy = 0;
    while (!busy && fgets(line, sizeof line, fp)) {
        struct stat st;
        if (sscanf(line, "%4095s", name) != 1 || name[0] != '/' || stat(name, &st) < 0)
            continue;
        if (S_ISBLK(st.st_mode) && major(st.st_rdev) == d->major && minor(st.st_rdev) == d->minor) {
            snprintf(why, len, "/dev/%s is an active swap area", d->name);
            busy = 1;
        }
    }
    fclose(fp);
    return busy;
}

static int held(const struct dev *d, char *why, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/holders", d->major, d->minor);
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    struct dirent *e;
    int busy = 0;
    while (!busy && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(why, len, "/dev/%s is held by %s (LVM, md or device-mapper)", d->name, e->d_name);
        busy = 1;
    }
    closedir(dir);
    return busy;
}

int pl_safety_block_in_use(unsigned major, unsigned minor, char *why, size_t len)
{
    struct dev *devs = calloc(MAX_DEVS, sizeof *devs);
    if (!devs)
        return -ENOMEM;
    int n = collect(major, minor, devs, MAX_DEVS);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        if (mounted(&devs[i], why, len) || swapping(&devs[i], why, len) || held(&devs[i], why, len))
            rc = -EBUSY;
    free(devs);
    return rc;
}
