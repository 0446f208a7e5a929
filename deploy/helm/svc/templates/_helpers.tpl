{{/*
Names and labels (helm.sh/docs/chart_best_practices/labels).
*/}}

{{/* The chart name, or nameOverride. */}}
{{- define "svc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of every object: fullnameOverride, else the release name when it already holds the chart
name, else "<release>-<chart>". Cut to 63 characters (DNS label).
*/}}
{{- define "svc.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "svc.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select this release's pods; never change them after the first install. */}}
{{- define "svc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "svc.labels" -}}
helm.sh/chart: {{ include "svc.chart" . }}
{{ include "svc.selectorLabels" . }}
app.kubernetes.io/version: {{ include "svc.imageTag" . | trunc 63 | quote }}
app.kubernetes.io/component: server
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "svc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "svc.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The image tag: image.tag, else the chart's appVersion. */}}
{{- define "svc.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{/* repository:tag, repository@digest, or repository:tag@digest (the digest is what is pulled). */}}
{{- define "svc.image" -}}
{{- $image := .Values.image -}}
{{- if and $image.digest $image.tag -}}
{{- printf "%s:%s@%s" $image.repository $image.tag $image.digest -}}
{{- else if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (include "svc.imageTag" .) -}}
{{- end -}}
{{- end }}

{{/* Whether more than one pod may run at once (then signing keys must be shared). */}}
{{- define "svc.multiReplica" -}}
{{- if or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1) }}true{{ end }}
{{- end }}

{{/*
The ConfigMap key of a project file: ConfigMap keys may not hold "/", so each file gets a key made
of a hash of its path and its (sanitised) file name; the volume's items put it back at its path.
*/}}
{{- define "svc.projectFileKey" -}}
{{- $base := regexReplaceAll "[^-._a-zA-Z0-9]" (base .) "_" | trunc 40 -}}
{{- printf "f%s-%s" (sha256sum . | trunc 12) $base -}}
{{- end }}

{{/*
The container's command: command, else (configMap) project.startCommand, else none: the image's
entrypoint, which `svc build --image` makes `java … -jar lib/svc.jar serve model.bin --address 0.0.0.0`.
*/}}
{{- define "svc.command" -}}
{{- if .Values.command }}
{{- toYaml .Values.command }}
{{- else if eq .Values.project.source "configMap" }}
{{- toYaml .Values.project.startCommand }}
{{- end }}
{{- end }}

{{/*
The container's arguments: args, else svc's flags, after the image's entrypoint (image) or after
`start <mountPath> --address 0.0.0.0` (configMap).
*/}}
{{- define "svc.args" -}}
{{- if .Values.args }}
{{- toYaml .Values.args }}
{{- else }}
{{- if eq .Values.project.source "configMap" }}
- start
- {{ .Values.project.mountPath | quote }}
- --address
- "0.0.0.0"
{{- end }}
- --port
- {{ .Values.server.port | quote }}
- --log-format
- {{ .Values.server.logFormat | quote }}
{{- with .Values.server.logLevel }}
- --log-level
- {{ . | quote }}
{{- end }}
{{- with .Values.server.logTags }}
- --log-tags
- {{ . | quote }}
{{- end }}
{{- range .Values.server.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
