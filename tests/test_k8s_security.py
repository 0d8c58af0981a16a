"""Pod security: every pod the manifests make meets the Kubernetes "restricted" Pod
Security Standard, which the overlays' namespace enforces.

No cluster runs here, so the standard's checks (Kubernetes 1.32: the baseline's, then the
restricted profile's) are applied by :func:`violations` to each rendered pod template —
the API's, the Ray head's and each worker group's — with the containers KubeRay v1.6 adds
at run time: the `wait-gcs-ready` init container of a worker, which copies the Ray
container's image and securityContext, and the autoscaler beside the head, which takes
``autoscalerOptions.securityContext`` and resources.  The checker is shown to refuse each
kind of violation, so a pod that stops meeting the standard fails here."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.test_k8s import KUSTOMIZATIONS, OVERLAYS, WITH_COMPONENTS, one, pod_specs

Spec = dict[str, Any]

# Restricted: the only volume types allowed.
VOLUME_TYPES = {
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "ephemeral",
    "persistentVolumeClaim",
    "projected",
    "secret",
}
# Baseline: the sysctls a pod may set.
SAFE_SYSCTLS = {
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}
SELINUX_TYPES = {"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}


def _all_containers(spec: Spec) -> Iterator[Spec]:
    for field in ("initContainers", "containers", "ephemeralContainers"):
        yield from spec.get(field, [])


def violations(spec: Spec, annotations: dict[str, str] | None = None) -> list[str]:
    """What in a pod spec the restricted profile refuses (empty when it meets it)."""
    found: list[str] = []
    pod = spec.get("securityContext", {})
    containers = list(_all_containers(spec))
    contexts = [("pod", pod)] + [(c["name"], c.get("securityContext", {})) for c in containers]
    # -- baseline --
    for field in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(field):
            found.append(f"{field}")
    for where, context in contexts:
        if context.get("windowsOptions", {}).get("hostProcess"):
            found.append(f"{where}: hostProcess")
        selinux = context.get("seLinuxOptions", {})
        if selinux.get("type", "") not in SELINUX_TYPES or "user" in selinux or "role" in selinux:
            found.append(f"{where}: seLinuxOptions")
        apparmor = context.get("appArmorProfile", {}).get("type", "RuntimeDefault")
        if apparmor not in {"RuntimeDefault", "Localhost"}:
            found.append(f"{where}: appArmorProfile {apparmor}")
        if context.get("seccompProfile", {}).get("type") == "Unconfined":
            found.append(f"{where}: seccomp Unconfined")
    for key, value in (annotations or {}).items():
        if key.startswith("container.apparmor.security.beta.kubernetes.io/") and not (
            value == "runtime/default" or value.startswith("localhost/")
        ):
            found.append(f"annotation {key}")
    for sysctl in pod.get("sysctls", []):
        if sysctl["name"] not in SAFE_SYSCTLS:
            found.append(f"sysctl {sysctl['name']}")
    for volume in spec.get("volumes", []):
        kinds = set(volume) - {"name"}
        if not kinds <= VOLUME_TYPES:  # restricted; hostPath is baseline's own refusal
            found.append(f"volume {volume['name']}: {sorted(kinds - VOLUME_TYPES)}")
    for container in containers:
        name, context = container["name"], container.get("securityContext", {})
        if context.get("privileged"):
            found.append(f"{name}: privileged")
        if context.get("procMount", "Default") != "Default":
            found.append(f"{name}: procMount")
        for port in container.get("ports", []):
            if port.get("hostPort"):
                found.append(f"{name}: hostPort")
        for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
            for action in ("httpGet", "tcpSocket"):
                if container.get(probe, {}).get(action, {}).get("host"):
                    found.append(f"{name}: {probe} host")
        # -- restricted --
        if context.get("allowPrivilegeEscalation") is not False:
            found.append(f"{name}: allowPrivilegeEscalation not false")
        capabilities = context.get("capabilities", {})
        if "ALL" not in capabilities.get("drop", []):
            found.append(f"{name}: capabilities not dropping ALL")
        if set(capabilities.get("add", [])) - {"NET_BIND_SERVICE"}:
            found.append(f"{name}: capabilities added")
        if context.get("runAsNonRoot") is False or (
            context.get("runAsNonRoot") is not True and pod.get("runAsNonRoot") is not True
        ):
            found.append(f"{name}: runAsNonRoot not true")
        seccomp = context.get("seccompProfile", pod.get("seccompProfile", {})).get("type")
        if seccomp not in {"RuntimeDefault", "Localhost"}:
            found.append(f"{name}: seccompProfile {seccomp}")
    for where, context in contexts:
        if context.get("runAsUser") == 0:
            found.append(f"{where}: runAsUser 0")
    return found


def with_kuberays_containers(name: str, part: str, spec: Spec) -> Spec:
    """The pod KubeRay v1.6 makes of a RayCluster template: a worker gets the
    `wait-gcs-ready` init container (the Ray container's image and securityContext), the
    head the autoscaler sidecar (autoscalerOptions.securityContext and resources) and the
    volume of Ray's logs they share."""
    spec = copy.deepcopy(spec)
    if part == "api":
        return spec
    ray = one(name, "RayCluster")["spec"]
    ray_container = spec["containers"][0]
    if part == "ray-head":
        options = ray["autoscalerOptions"]
        spec["containers"].append(
            {
                "name": "autoscaler",
                "image": ray_container["image"],
                "resources": options["resources"],
                "securityContext": options.get("securityContext", {}),
                "volumeMounts": [{"name": "ray-logs", "mountPath": "/tmp/ray"}],
            }
        )
        spec.setdefault("volumes", []).append({"name": "ray-logs", "emptyDir": {}})
    else:
        spec.setdefault("initContainers", []).append(
            {
                "name": "wait-gcs-ready",
                "image": ray_container["image"],
                "securityContext": copy.deepcopy(ray_container.get("securityContext", {})),
            }
        )
    return spec


@pytest.mark.parametrize("name", (*KUSTOMIZATIONS, WITH_COMPONENTS))
def test_every_pod_meets_the_restricted_profile(name: str) -> None:
    checked = 0
    for part, spec in pod_specs(name):
        pod = with_kuberays_containers(name, part, spec)
        assert violations(pod) == [], (name, part)
        checked += len(list(_all_containers(pod)))
    # The API with its cache copy; the head with the autoscaler; a worker, its cache copy
    # and KubeRay's wait-gcs-ready.
    assert checked == 7


@pytest.mark.parametrize("name", OVERLAYS)
def test_the_namespace_enforces_the_restricted_profile(name: str) -> None:
    labels = one(name, "Namespace", "cardroom")["metadata"]["labels"]
    for mode in ("enforce", "audit", "warn"):
        assert labels[f"pod-security.kubernetes.io/{mode}"] == "restricted", mode
    assert labels["pod-security.kubernetes.io/enforce-version"] == "v1.32"


def _worker(name: str = "overlays/small") -> Spec:
    specs = dict(pod_specs(name))
    return with_kuberays_containers(name, "ray-cpu", specs["ray-cpu"])


def _set(path: str, value: Any) -> Callable[[Spec], None]:
    """A change to a worker pod: `path` is dot-separated, with container indices."""

    def change(spec: Spec) -> None:
        *parents, last = path.split(".")
        node: Any = spec
        for key in parents:
            node = node[int(key)] if key.isdigit() else node.setdefault(key, {})
        node[last] = value

    return change


def _remove(path: str) -> Callable[[Spec], None]:
    def change(spec: Spec) -> None:
        *parents, last = path.split(".")
        node: Any = spec
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        del node[last]

    return change


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_set("hostNetwork", True), "hostNetwork"),
        (_set("containers.0.securityContext.privileged", True), "privileged"),
        (_set("containers.0.securityContext.allowPrivilegeEscalation", True), "Escalation"),
        (_remove("containers.0.securityContext.allowPrivilegeEscalation"), "Escalation"),
        (_set("containers.0.securityContext.capabilities", {"drop": ["NET_RAW"]}), "ALL"),
        (_set("containers.0.securityContext.capabilities.add", ["SYS_ADMIN"]), "added"),
        (_remove("securityContext.runAsNonRoot"), "runAsNonRoot"),
        (_set("initContainers.0.securityContext.runAsNonRoot", False), "runAsNonRoot"),
        (_set("containers.0.securityContext.runAsUser", 0), "runAsUser 0"),
        (_remove("securityContext.seccompProfile"), "seccompProfile"),
        (_set("containers.0.securityContext.seccompProfile", {"type": "Unconfined"}), "seccomp"),
        (_set("volumes.0.hostPath", {"path": "/var/run"}), "hostPath"),
        (_set("containers.0.ports.0.hostPort", 8080), "hostPort"),
        (_set("securityContext.sysctls", [{"name": "kernel.msgmax", "value": "1"}]), "sysctl"),
        (_set("containers.0.securityContext.procMount", "Unmasked"), "procMount"),
        (_set("containers.0.securityContext.seLinuxOptions", {"user": "root"}), "seLinux"),
        (_set("securityContext.appArmorProfile", {"type": "Unconfined"}), "appArmor"),
        # KubeRay's init container copies the Ray container's context: an unsafe one shows.
        (_remove("initContainers.1.securityContext.capabilities"), "wait-gcs-ready"),
    ],
)
def test_the_checker_refuses_each_violation(change: Callable[[Spec], None], expected: str) -> None:
    spec = _worker()
    assert violations(spec) == []
    change(spec)
    found = violations(spec)
    assert any(expected in f for f in found), found


def test_the_autoscaler_without_a_security_context_would_break_the_profile() -> None:
    ray = copy.deepcopy(one("overlays/small", "RayCluster"))
    head = ray["spec"]["headGroupSpec"]["template"]["spec"]
    assert violations(with_kuberays_containers("overlays/small", "ray-head", head)) == []
    pod = with_kuberays_containers("overlays/small", "ray-head", head)
    pod["containers"][-1]["securityContext"] = {}
    found = violations(pod)
    assert any(f.startswith("autoscaler:") for f in found), found
