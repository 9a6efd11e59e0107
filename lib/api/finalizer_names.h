/*
 * The finalizers Kubernetes itself puts on objects, named once: the
 * garbage collector's two (foreground deletion, orphaning), the namespace
 * controller's, and the two storage protections.
 */
#ifndef OWNERS_FINALIZER_NAMES_H
#define OWNERS_FINALIZER_NAMES_H

#define OWNERS_FINALIZER_FOREGROUND "foregroundDeletion"
#define OWNERS_FINALIZER_ORPHAN "orphan"
#define OWNERS_FINALIZER_NAMESPACE "kubernetes"
#define OWNERS_FINALIZER_PVC "kubernetes.io/pvc-protection"
#define OWNERS_FINALIZER_PV "kubernetes.io/pv-protection"

#endif
