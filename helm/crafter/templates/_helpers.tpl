{{/* Release-wide name: the release name when it already says "crafter", else "<release>-crafter". */}}
{{- define "crafter.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else if contains "crafter" .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-crafter" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of a component's objects. Args: root, name. */}}
{{- define "crafter.componentName" -}}
{{- printf "%s-%s" (include "crafter.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "crafter.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: crafter
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: crafter
{{- end -}}

{{/* Selector labels of a component's pods. Args: root, name. */}}
{{- define "crafter.selectorLabels" -}}
app.kubernetes.io/name: crafter
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/*
The component NAME with `default` under it, as YAML (use with fromYaml). One level: a component's
key replaces the default's key as a whole (no deep merge, so `enabled: false` always wins).
Args: root, name.
*/}}
{{- define "crafter.component" -}}
{{- $c := deepCopy .root.Values.default -}}
{{- range $key, $value := index .root.Values.components .name -}}
{{- $_ := set $c $key $value -}}
{{- end -}}
{{- toYaml $c -}}
{{- end -}}

{{/* Image reference of a component. Args: root, c. */}}
{{- define "crafter.image" -}}
{{- $tag := .c.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s/%s:%s" .root.Values.image.registry .c.image.repository $tag -}}
{{- end -}}

{{/* Addresses of the backing services (always external servers). */}}
{{- define "crafter.mongodbUrl" -}}
{{- .Values.external.mongodb.url -}}
{{- end -}}
{{- define "crafter.kafkaBrokers" -}}
{{- .Values.external.kafka.brokers -}}
{{- end -}}
{{- define "crafter.redisUrl" -}}
{{- .Values.external.redis.url -}}
{{- end -}}

{{/* True ("true") when backing service NAME comes from a Secret. Args: root, name. */}}
{{- define "crafter.fromSecret" -}}
{{- $ref := (index .root.Values.external .name).secretRef | default dict -}}
{{- if $ref.name -}}true{{- end -}}
{{- end -}}

{{/* The variable a backing service is configured by. */}}
{{- define "crafter.serviceVar" -}}
{{- get (dict "mongodb" "MONGODB_URL" "kafka" "KAFKA_BROKERS" "redis" "REDIS_URL" "smtp" "SMTP_URL" "s3" "S3_ENDPOINT") . -}}
{{- end -}}

{{/* ConfigMap data of a component: chart-wide config, addresses, then the component's env. Args: root, name, c. */}}
{{- define "crafter.configData" -}}
{{- $root := .root -}}
{{- $data := dict -}}
{{- range $key, $value := $root.Values.config -}}
{{- $_ := set $data $key (toString $value) -}}
{{- end -}}
{{- $_ := set $data "HOST" "0.0.0.0" -}}
{{- $_ := set $data "PORT" (toString .c.port) -}}
{{- $_ := set $data "PUBLIC_ORIGIN" $root.Values.publicOrigin -}}
{{- with $root.Values.customDomains.target -}}
{{- $_ := set $data "CUSTOM_DOMAIN_TARGET" . -}}
{{- end -}}
{{- with $root.Values.telemetry.otlpEndpoint -}}
{{- $_ := set $data "OTEL_EXPORTER_OTLP_ENDPOINT" . -}}
{{- end -}}
{{- $values := dict "mongodb" (include "crafter.mongodbUrl" $root) "kafka" (include "crafter.kafkaBrokers" $root) "redis" (include "crafter.redisUrl" $root) "smtp" $root.Values.external.smtp.url "s3" $root.Values.external.s3.url -}}
{{- range $service := .c.uses -}}
{{- if and (not (include "crafter.fromSecret" (dict "root" $root "name" $service))) (index $values $service) -}}
{{- $_ := set $data (include "crafter.serviceVar" $service) (index $values $service) -}}
{{- end -}}
{{- end -}}
{{- $caller := .name -}}
{{- range $callee := .c.calls -}}
{{- if not (hasKey $root.Values.components $callee) -}}
{{- fail (printf "components.%s.calls names %s, which is not a component" $caller $callee) -}}
{{- end -}}
{{- $target := include "crafter.component" (dict "root" $root "name" $callee) | fromYaml -}}
{{- if not $target.enabled -}}
{{- fail (printf "components.%s calls %s, which is not enabled" $caller $callee) -}}
{{- end -}}
{{- $_ := set $data (printf "%s_URL" (upper $callee)) (printf "http://%s:%v" (include "crafter.componentName" (dict "root" $root "name" $callee)) $target.port) -}}
{{- end -}}
{{- range $key, $value := .c.env -}}
{{- $_ := set $data $key (toString $value) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Name of the Secret of service-identity secrets (templates/service-secrets.yaml). */}}
{{- define "crafter.serviceSecretsName" -}}
{{- .Values.serviceSecrets.name | default (printf "%s-service-secrets" (include "crafter.fullname" .)) -}}
{{- end -}}

{{/*
Environment from Secrets: the component's service-identity secret (SERVICE_SECRET; auth also gets
SERVICE_SECRETS, the table of all), its secretEnv and the backing services' secretRefs.
Args: root, c, name.
*/}}
{{- define "crafter.secretEnv" -}}
{{- $root := .root -}}
{{- if .name }}
- name: SERVICE_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "crafter.serviceSecretsName" $root }}
      key: {{ .name }}
      optional: true
{{- if eq .name "auth" }}
- name: SERVICE_SECRETS
  valueFrom:
    secretKeyRef:
      name: {{ include "crafter.serviceSecretsName" $root }}
      key: SERVICE_SECRETS
{{- end }}
{{- end -}}
{{- range $service := .c.uses -}}
{{- if include "crafter.fromSecret" (dict "root" $root "name" $service) }}
{{- $ref := (index $root.Values.external $service).secretRef }}
- name: {{ include "crafter.serviceVar" $service }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name }}
      key: {{ $ref.key }}
{{- end -}}
{{- end -}}
{{- range $var, $ref := .c.secretEnv }}
- name: {{ $var }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name }}
      key: {{ $ref.key }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end -}}
{{- end -}}

{{/* NetworkPolicy egress rules to the backing services a component (or the Job) uses. Args: root, uses. */}}
{{- define "crafter.backingEgress" -}}
{{- $root := .root -}}
{{- range $service := .uses }}
{{- $ext := index $root.Values.external $service }}
- ports:
  {{- range $ext.ports }}
  - port: {{ . }}
    protocol: TCP
  {{- end }}
  {{- with $ext.peers }}
  to:
    {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
{{- end -}}

{{/* NetworkPolicy egress every pod needs: cluster DNS, and the telemetry collector when set. */}}
{{- define "crafter.baseEgress" -}}
- ports:
  - port: 53
    protocol: UDP
  - port: 53
    protocol: TCP
  to:
  - namespaceSelector:
      {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 6 }}
    podSelector:
      {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 6 }}
{{- if .Values.telemetry.otlpEndpoint }}
- ports:
  - port: {{ .Values.telemetry.port }}
    protocol: TCP
{{- end }}
{{- end -}}

{{/* The writable /tmp of a read-only root filesystem. */}}
{{- define "crafter.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end -}}
