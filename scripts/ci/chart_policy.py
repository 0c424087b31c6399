"""Checks what kubeconform cannot in Crafter's rendered chart (scripts/ci/deploy-check.sh runs it).

Usage: python chart_policy.py RENDERED.yaml [MANIFEST.yaml]   (the output of `helm template`, and
services/manifest.yaml)
Exits 1 listing every broken rule:
  - each Deployment runs non-root, read-only, without privilege escalation or capabilities, with
    requests and limits, a writable /tmp, and native grpc probes (gRPC ports) or /healthz (HTTP);
  - each Deployment has its Service, ConfigMap, ServiceAccount, PodDisruptionBudget and NetworkPolicy;
  - a default-deny NetworkPolicy selects every pod;
  - every <NAME>_URL that points at another component is an allowed path both ways (caller egress,
    callee ingress) on the callee's port;
  - with the manifest: every component it declares is rendered with its port, protocol and image;
    every service it calls gets its <PEER>_URL (pointing at that peer's Service and port) and the
    egress and ingress rules to it, and no <PEER>_URL it does not call; every server it uses gets its
    variable (ConfigMap or Secret) and no other server's; so a `calls` entry missing from the values
    (as the gateway's and workflows' billing once was) fails here, not in a cluster;
  - the migrate Job is a post-install/post-upgrade hook whose containers run `... migrate`;
  - the Ingress routes to an existing Service port.
"""

import re
import sys

import yaml


SERVER_VARS = {"mongodb": "MONGODB_URL", "kafka": "KAFKA_BROKERS", "redis": "REDIS_URL", "smtp": "SMTP_URL", "s3": "S3_ENDPOINT"}


def main(path: str, manifest_path: str | None = None) -> int:
    with open(path, encoding="utf-8") as file:
        objects = [doc for doc in yaml.safe_load_all(file) if doc]
    manifest = None
    if manifest_path:
        with open(manifest_path, encoding="utf-8") as file:
            manifest = yaml.safe_load(file)["components"]
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

    def admits(peer: dict, labels: dict) -> bool:
        match = peer.get("podSelector", {}).get("matchLabels")
        return "namespaceSelector" not in peer and match is not None and all(
            labels.get(k) == v for k, v in match.items()
        )

    def egress_ok(caller_labels: dict, target: dict, port: int) -> bool:
        return any(
            selects(p, caller_labels)
            and any(
                any(peer.get("podSelector", {}).get("matchLabels") == target for peer in rule.get("to", []))
                and any(rp.get("port") == port for rp in rule.get("ports", []))
                for rule in p["spec"].get("egress", [])
            )
            for p in policies.values()
            if p["spec"]["podSelector"]
        )

    def ingress_ok(caller_labels: dict, target: dict, port: int) -> bool:
        return any(
            selects(p, target)
            and any(
                (not rule.get("from") or any(admits(peer, caller_labels) for peer in rule["from"]))
                and any(rp.get("port") == port for rp in rule.get("ports", []))
                for rule in (p["spec"].get("ingress") or [])
            )
            for p in policies.values()
            if p["spec"]["podSelector"]
        )

    # Every call between components is allowed both ways by the NetworkPolicies.
    service_of = {name: services[name] for name in services}
    component_of_service = {
        name: svc["spec"]["selector"].get("app.kubernetes.io/component") for name, svc in services.items()
    }
    for name, deployment in deployments.items():
        caller_labels = deployment["spec"]["template"]["metadata"]["labels"]
        data = config_maps.get(name, {}).get("data", {})
        for key, value in data.items():
            found = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", str(value)) if key.endswith("_URL") else None
            if not found or found.group(1) not in service_of:
                continue
            target = service_of[found.group(1)]["spec"]["selector"]
            port = int(found.group(2))
            need(egress_ok(caller_labels, target, port), f"{name}: {key} → {found.group(1)}:{port} not allowed out")
            need(ingress_ok(caller_labels, target, port), f"{name}: {key} → {found.group(1)}:{port} not allowed in")

    # The rendered topology is the manifest's.
    if manifest is not None:
        rendered = {
            d["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"]: (n, d)
            for n, d in deployments.items()
        }
        for extra in sorted(set(rendered) - set(manifest)):
            need(False, f"{extra}: rendered, but not in the manifest")
        for component, declared in manifest.items():
            if component not in rendered:
                need(False, f"{component}: in the manifest, but not rendered")
                continue
            name, deployment = rendered[component]
            labels = deployment["spec"]["template"]["metadata"]["labels"]
            container = deployment["spec"]["template"]["spec"]["containers"][0]
            (port,) = container["ports"]
            protocol = declared.get("protocol", "grpc")
            need(port["containerPort"] == declared["port"], f"{component}: port {port['containerPort']}, manifest says {declared['port']}")
            need(port["name"] == protocol, f"{component}: a {port['name']} port, manifest says {protocol}")
            image = container["image"].rsplit(":", 1)[0].rsplit("/", 1)[-1]
            need(image == declared["image"], f"{component}: image {image}, manifest says {declared['image']}")
            data = config_maps.get(name, {}).get("data", {})
            secret_vars = {e["name"] for e in container.get("env", [])}
            calls = set(declared.get("calls") or [])
            for callee in sorted(calls):
                var = f"{callee.upper().replace('-', '_')}_URL"
                peer = rendered.get(callee)
                if peer is None:
                    continue  # reported above
                peer_name, peer_deployment = peer
                peer_labels = peer_deployment["spec"]["template"]["metadata"]["labels"]
                peer_port = peer_deployment["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"]
                url = data.get(var)
                found = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", str(url)) if url else None
                if not found:
                    need(False, f"{component}: calls {callee} but gets no {var}")
                    continue
                need(
                    component_of_service.get(found.group(1)) == callee and int(found.group(2)) == peer_port,
                    f"{component}: {var}={url} is not {callee}'s Service on port {peer_port}",
                )
                selector = {k: peer_labels[k] for k in service_of.get(peer_name, {}).get("spec", {}).get("selector", {})}
                need(egress_ok(labels, selector, peer_port), f"{component}: calls {callee} but no egress rule allows it")
                need(ingress_ok(labels, selector, peer_port), f"{component}: calls {callee} but {callee} admits no ingress from it")
            for key, value in data.items():
                found = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", str(value)) if key.endswith("_URL") else None
                callee = component_of_service.get(found.group(1)) if found else None
                if callee and callee not in calls:
                    need(False, f"{component}: gets {key} for {callee}, which the manifest does not say it calls")
            uses = set(declared.get("uses") or [])
            for server, var in SERVER_VARS.items():
                has = var in data or var in secret_vars
                if server in uses:
                    # SMTP and S3 have no in-chart default address (usually a Secret the operator adds).
                    need(has or server in ("smtp", "s3"), f"{component}: uses {server} but gets no {var}")
                else:
                    need(not has, f"{component}: gets {var}, but the manifest does not say it uses {server}")

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
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
