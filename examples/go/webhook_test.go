// An admission webhook written in Go, called by `kubetape serve`: an HTTPS server (httptest's,
// its certificate as the configuration's caBundle) that refuses ConfigMaps without a `team`
// label, registered with a ValidatingWebhookConfiguration written to an empty serve (a serve
// of a recording serves the recorded resources only). A controller-runtime webhook server is
// registered the same way.
package kubetape_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type admissionReview struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Request    *admissionRequest  `json:"request,omitempty"`
	Response   *admissionResponse `json:"response,omitempty"`
}

type admissionRequest struct {
	UID       string `json:"uid"`
	Operation string `json:"operation"`
	Object    struct {
		Metadata struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
	} `json:"object"`
}

type admissionResponse struct {
	UID     string                 `json:"uid"`
	Allowed bool                   `json:"allowed"`
	Status  map[string]interface{} `json:"status,omitempty"`
}

// emptyServe starts `kubetape serve` without a recording (an empty v1.26 cluster) and returns its URL.
func emptyServe(t *testing.T) string {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	cmd := exec.Command("node", filepath.Join(root, "bin", "kubetape.js"), "serve", "--listen", "127.0.0.1:0", "--log-level", "warn")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal("kubetape serve did not start:", err)
	}
	return first[strings.LastIndex(first, " ")+1 : len(first)-1]
}

func send(t *testing.T, base, method, path string, body interface{}) (int, map[string]interface{}) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, base+path, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]interface{}
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func TestAdmissionWebhookRefusesAConfigMapWithoutTeam(t *testing.T) {
	cluster := emptyServe(t)
	webhook := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review admissionReview
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
			http.Error(w, "no review", http.StatusBadRequest)
			return
		}
		response := &admissionResponse{UID: review.Request.UID, Allowed: true}
		if review.Request.Object.Metadata.Labels["team"] == "" {
			response.Allowed = false
			response.Status = map[string]interface{}{"code": 403, "reason": "Forbidden", "message": "every ConfigMap needs a team label"}
		}
		_ = json.NewEncoder(w).Encode(admissionReview{APIVersion: review.APIVersion, Kind: review.Kind, Response: response})
	}))
	defer webhook.Close()
	caBundle := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: webhook.Certificate().Raw}))

	configs := "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
	code, body := send(t, cluster, "POST", configs, map[string]interface{}{
		"metadata": map[string]interface{}{"name": "team-label"},
		"webhooks": []interface{}{map[string]interface{}{
			"name":                    "team-label.example.com",
			"clientConfig":            map[string]interface{}{"url": webhook.URL + "/validate", "caBundle": caBundle},
			"rules":                   []interface{}{map[string]interface{}{"operations": []string{"CREATE"}, "apiGroups": []string{""}, "apiVersions": []string{"v1"}, "resources": []string{"configmaps"}}},
			"sideEffects":             "None",
			"admissionReviewVersions": []string{"v1"},
		}},
	})
	if code != http.StatusCreated {
		t.Fatalf("webhook configuration: %d %v", code, body)
	}

	configMaps := "/api/v1/namespaces/default/configmaps"
	code, body = send(t, cluster, "POST", configMaps, map[string]interface{}{"metadata": map[string]interface{}{"name": "no-team"}})
	if code != http.StatusForbidden || body["message"] != `admission webhook "team-label.example.com" denied the request: every ConfigMap needs a team label` {
		t.Fatalf("without a team: %d %v", code, body)
	}
	code, body = send(t, cluster, "POST", configMaps, map[string]interface{}{"metadata": map[string]interface{}{"name": "with-team", "labels": map[string]string{"team": "a"}}})
	if code != http.StatusCreated {
		t.Fatalf("with a team: %d %v", code, body)
	}
}
