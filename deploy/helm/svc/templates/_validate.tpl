{{/*
Checks across values that values.schema.json cannot express. Each failure says what to change.
*/}}
{{- define "svc.validate" -}}
{{- $v := .Values -}}
{{- if and (include "svc.multiReplica" .) (not $v.signing.existingSecret) }}
{{- fail "more than one pod can run (replicaCount > 1 or autoscaling.enabled), so every pod needs the same SVC_SESSION_KEY and SVC_CURSOR_SECRET: MCP sessions, 2026-07-28 request states and result cursors made on one pod are then accepted by the others. Create a Secret holding both (kubectl create secret generic svc-signing --from-literal=SVC_SESSION_KEY=\"$(openssl rand -hex 32)\" --from-literal=SVC_CURSOR_SECRET=\"$(openssl rand -hex 32)\") and set signing.existingSecret to its name" }}
{{- end }}
{{- $needed := add $v.drain.preStopSleepSeconds $v.drain.svcSeconds -}}
{{- if lt (int $v.terminationGracePeriodSeconds) (int $needed) }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be at least drain.preStopSleepSeconds + drain.svcSeconds (%d + %d = %d): Kubernetes kills the pod when the grace period ends, preStop included, and svc needs drain.svcSeconds after SIGTERM to finish requests in flight" (int $v.terminationGracePeriodSeconds) (int $v.drain.preStopSleepSeconds) (int $v.drain.svcSeconds) (int $needed)) }}
{{- end }}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- fail (printf "autoscaling.minReplicas (%d) is greater than autoscaling.maxReplicas (%d)" (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- end }}
{{- if and $v.autoscaling.enabled $v.autoscaling.targetCPUUtilizationPercentage (not (dig "requests" "cpu" "" $v.resources)) }}
{{- fail "autoscaling.targetCPUUtilizationPercentage needs resources.requests.cpu: utilisation is measured against the request" }}
{{- end }}
{{- if and $v.autoscaling.enabled $v.autoscaling.targetMemoryUtilizationPercentage (not (dig "requests" "memory" "" $v.resources)) }}
{{- fail "autoscaling.targetMemoryUtilizationPercentage needs resources.requests.memory: utilisation is measured against the request" }}
{{- end }}
{{- if eq $v.project.source "configMap" }}
{{- include "svc.validateProjectFiles" . }}
{{- else if $v.project.files }}
{{- fail "project.files is set but project.source is \"image\": set project.source=configMap to serve these files, or drop them to serve the project built into the image" }}
{{- end }}
{{- end }}

{{- define "svc.validateProjectFiles" -}}
{{- $files := .Values.project.files -}}
{{- $parent := dir .Values.project.mountPath -}}
{{- if regexMatch "^/(app|opt|tmp|etc|lib|lib64|usr|bin|sbin|proc|sys|dev|var/run)(/|$)" $parent }}
{{- fail (printf "project.mountPath %q would mount the project volume on %s, which the image or the pod needs: choose a directory under a new parent, e.g. /srv/project" .Values.project.mountPath $parent) }}
{{- end }}
{{- if not $files }}
{{- fail "project.source is configMap but project.files is empty: generate the values with deploy/helm/project-values.sh <project-dir> > project.yaml and pass -f project.yaml" }}
{{- end }}
{{- $seen := dict -}}
{{- $bytes := 0 -}}
{{- $hasRoot := false -}}
{{- range $files }}
{{- $path := .path -}}
{{- if or (not (regexMatch "^([^/]+/)*[^/]+$" $path)) (regexMatch "(^|/)\\.{1,2}(/|$)" $path) (regexMatch "[\\x00-\\x1f\\x7f]" $path) }}
{{- fail (printf "project.files: %q must be a relative path to a file inside the project (no leading \"/\", no \".\" or \"..\" segments, no empty ones, no control characters)" $path) }}
{{- end }}
{{- if regexMatch "(^|/)\\.env(\\.[^/]*)?$" $path }}
{{- fail (printf "project.files: %q is a .env file; it holds secrets, which do not belong in a ConfigMap: put the variables in a Secret and list it in envFrom.secrets" $path) }}
{{- end }}
{{- if and (hasKey . "content") (hasKey . "base64") }}
{{- fail (printf "project.files: %q has both content and base64; give one" $path) }}
{{- else if not (or (hasKey . "content") (hasKey . "base64")) }}
{{- fail (printf "project.files: %q has neither content nor base64" $path) }}
{{- end }}
{{- if hasKey $seen $path }}
{{- fail (printf "project.files: %q is listed twice" $path) }}
{{- end }}
{{- $_ := set $seen $path true -}}
{{- if eq $path ".svc" }}{{ $hasRoot = true }}{{ end -}}
{{- if hasKey . "base64" }}
{{- $bytes = add $bytes (div (mul (len (toString .base64)) 3) 4) -}}
{{- else }}
{{- $bytes = add $bytes (len (toString .content)) -}}
{{- end }}
{{- end }}
{{- if not $hasRoot }}
{{- fail "project.files has no \".svc\": the project's root file must be among the files (path \".svc\")" }}
{{- end }}
{{- if gt (int $bytes) 1000000 }}
{{- fail (printf "project.files hold %d bytes, more than a ConfigMap can carry (1 MiB with its keys): build the project into the image instead (svc build --image) and set project.source=image" (int $bytes)) }}
{{- end }}
{{- end }}
