"""Checks what kubeconform cannot in Crafter's rendered chart (scripts/ci/deploy-check.sh runs it).

Usage: python chart_policy.py RENDERED.yaml   (the output of `helm template`)
Exits 1 listing every broken rule:
  - each Deployment runs non-root, read-only, without privilege escalation or capabilities, with
    requests and limits, a writable /tmp, and native grpc probes (gRPC ports) or /healthz (HTTP);
  - each Deployment has its Service, ConfigMap, ServiceAccount, PodDisruptionBudget and NetworkPolicy;
  - a default-deny NetworkPolicy selects every pod;
  - every <NAME>_URL that points at another component is an allowed path both ways (caller egress,
    callee ingress) on the callee's port;
  - the migrate Job is a post-install/post-upgrade hook whose containers run `... migrate`;
  - the Ingress routes to an existing Service port.
"""

import re
import sys

import yaml


def main(path: str) -> int:
    with open(path, encoding="utf-8") as file:
        objects = [doc for doc in yaml.safe_load_all(file) if doc]
    by_kind: dict[str, dict[str, dict]] = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], {})[obj["metadata"]["name"]] = obj
    problems: list[str] = []

    def need(condition: bool, message: str) -> None:
        if not condition:
            problems.append(message)

    deployments = by_kind.get("Deployment", {})
    services = by_kind.get("Service", {})
    policies = by_kind.get("NetworkPolicy", {})
    config_maps = by_kind.get("ConfigMap", {})
    need(len(deployments) > 0, "no Deployment rendered")

    def selects(policy: dict, labels: dict) -> bool:
        match = policy["spec"]["podSelector"].get("matchLabels", {})
        return all(labels.get(key) == value for key, value in match.items())

    deny = [
        p
        for p in policies.values()
        if p["spec"]["podSelector"] == {} and set(p["spec"].get("policyTypes", [])) == {"Ingress", "Egress"}
        and not p["spec"].get("ingress") and not p["spec"].get("egress")
    ]
    need(len(deny) == 1, "expected one default-deny NetworkPolicy selecting every pod")

    # component name → (pod labels, port)
    components: dict[str, tuple[dict, int]] = {}
    for name, deployment in deployments.items():
        pod = deployment["spec"]["template"]["spec"]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        need(pod.get("securityContext", {}).get("runAsNonRoot") is True, f"{name}: pod not runAsNonRoot")
        need(pod.get("automountServiceAccountToken") is False, f"{name}: mounts a service account token")
        need(pod.get("serviceAccountName") in by_kind.get("ServiceAccount", {}), f"{name}: no ServiceAccount")
        need(name in by_kind.get("PodDisruptionBudget", {}), f"{name}: no PodDisruptionBudget")
        need(name in services, f"{name}: no Service")
        need(any(selects(p, labels) for p in policies.values() if p["spec"]["podSelector"]), f"{name}: no NetworkPolicy")
        tmp_volumes = {v["name"] for v in pod.get("volumes", []) if "emptyDir" in v}
        for container in pod["containers"]:
            where = f"{name}/{container['name']}"
            security = container.get("securityContext", {})
            need(security.get("readOnlyRootFilesystem") is True, f"{where}: root filesystem writable")
            need(security.get("allowPrivilegeEscalation") is False, f"{where}: privilege escalation allowed")
            need("ALL" in security.get("capabilities", {}).get("drop", []), f"{where}: capabilities not dropped")
            for kind in ("requests", "limits"):
                need({"cpu", "memory"} <= set(container.get("resources", {}).get(kind, {})), f"{where}: no cpu/memory {kind}")
            need(
                any(m["mountPath"] == "/tmp" and m["name"] in tmp_volumes for m in container.get("volumeMounts", [])),
                f"{where}: no emptyDir /tmp",
            )
            for ref in container.get("envFrom", []):
                need(ref["configMapRef"]["name"] in config_maps, f"{where}: ConfigMap {ref['configMapRef']['name']} missing")
            (port,) = container["ports"]
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                spec = container.get(probe)
                need(spec is not None, f"{where}: no {probe}")
                if spec is None:
                    continue
                if port["name"] == "grpc":
                    need(spec.get("grpc", {}).get("port") == port["containerPort"], f"{where}: {probe} is not a grpc probe")
                else:
                    need(spec.get("httpGet", {}).get("path") == "/healthz", f"{where}: {probe} is not GET /healthz")
            components[labels["app.kubernetes.io/component"]] = (labels, port["containerPort"])

    # Every call between components is allowed both ways by the NetworkPolicies.
    service_of = {name: services[name] for name in services}
    for name, deployment in deployments.items():
        caller_labels = deployment["spec"]["template"]["metadata"]["labels"]
        data = config_maps.get(name, {}).get("data", {})
        for key, value in data.items():
            found = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", str(value)) if key.endswith("_URL") else None
            if not found or found.group(1) not in service_of:
                continue
            target = service_of[found.group(1)]["spec"]["selector"]
            port = int(found.group(2))
            egress_ok = any(
                selects(p, caller_labels)
                and any(
                    any(peer.get("podSelector", {}).get("matchLabels") == target for peer in rule.get("to", []))
                    and any(rp.get("port") == port for rp in rule.get("ports", []))
                    for rule in p["spec"].get("egress", [])
                )
                for p in policies.values()
                if p["spec"]["podSelector"]
            )
            def admits(peer: dict, labels: dict = caller_labels) -> bool:
                match = peer.get("podSelector", {}).get("matchLabels")
                return "namespaceSelector" not in peer and match is not None and all(
                    labels.get(k) == v for k, v in match.items()
                )

            ingress_ok = any(
                selects(p, target)
                and any(
                    (not rule.get("from") or any(admits(peer) for peer in rule["from"]))
                    and any(rp.get("port") == port for rp in rule.get("ports", []))
                    for rule in (p["spec"].get("ingress") or [])
                )
                for p in policies.values()
                if p["spec"]["podSelector"]
            )
            need(egress_ok, f"{name}: {key} → {found.group(1)}:{port} not allowed out")
            need(ingress_ok, f"{name}: {key} → {found.group(1)}:{port} not allowed in")

    jobs = by_kind.get("Job", {})
    for name, job in jobs.items():
        hooks = set(job["metadata"].get("annotations", {}).get("helm.sh/hook", "").split(","))
        need({"post-install", "post-upgrade"} <= hooks, f"{name}: not a post-install,post-upgrade hook")
        containers = job["spec"]["template"]["spec"]["containers"]
        need(len(containers) > 0, f"{name}: no containers")
        for container in containers:
            need(container.get("command", [])[-1:] == ["migrate"], f"{name}/{container['name']}: does not run migrate")
            need(
                container.get("securityContext", {}).get("readOnlyRootFilesystem") is True,
                f"{name}/{container['name']}: root filesystem writable",
            )

    for name, ingress in by_kind.get("Ingress", {}).items():
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                service = services.get(backend["name"])
                need(
                    service is not None and any(p["port"] == backend["port"]["number"] for p in service["spec"]["ports"]),
                    f"{name}: backend {backend['name']}:{backend['port']['number']} is no Service port",
                )

    for problem in problems:
        print(f"chart policy: {problem}", file=sys.stderr)
    print(
        f"chart policy: {len(deployments)} components, {len(policies)} NetworkPolicies, {len(jobs)} Jobs: "
        f"{'ok' if not problems else f'{len(problems)} problems'}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
