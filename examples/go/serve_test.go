// A Go test against `kubetape serve`, with the standard library only: TestMain starts the server
// on a free port, reads its URL from the first line it prints, and points the tests at it (a
// client-go test would load the kubeconfig it writes with clientcmd instead).
package kubetape_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var (
	server    string // http://127.0.0.1:PORT
	namespace string // the kubeconfig's namespace: where the recording's objects are
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir, err := os.MkdirTemp("", "kubetape-go-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	kubeconfig := filepath.Join(dir, "kubeconfig")

	cmd := exec.Command("node", filepath.Join(root, "bin", "kubetape.js"), "serve",
		"--db", filepath.Join(root, "recordings", "examples", "configmaps.db"),
		"--listen", "127.0.0.1:0", "--write-kubeconfig", kubeconfig, "--log-level", "warn")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()

	// First line: "kubetape serve listening on http://127.0.0.1:PORT"; the kubeconfig is written by then.
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubetape serve did not start:", err)
		return 1
	}
	server = first[strings.LastIndex(first, " ")+1 : len(first)-1]
	namespace = kubeconfigField(kubeconfig, "namespace")
	if got := kubeconfigField(kubeconfig, "server"); got != server {
		fmt.Fprintf(os.Stderr, "kubeconfig server %q, printed %q\n", got, server)
		return 1
	}
	return m.Run()
}

// kubeconfigField reads `key: value` from the kubeconfig kubetape writes (YAML, one value per line).
func kubeconfigField(path, key string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, key+": ") {
			return strings.TrimPrefix(line, key+": ")
		}
	}
	return ""
}

type objectMeta struct {
	Name            string `json:"name"`
	ResourceVersion string `json:"resourceVersion"`
}

type configMapList struct {
	Metadata struct {
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
	Items []struct {
		Metadata objectMeta `json:"metadata"`
	} `json:"items"`
}

type watchEvent struct {
	Type   string `json:"type"`
	Object struct {
		Metadata objectMeta `json:"metadata"`
		Code     int        `json:"code"`
		Reason   string     `json:"reason"`
	} `json:"object"`
}

func get(t *testing.T, path string, into interface{}) {
	t.Helper()
	res, err := http.Get(server + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

// watch reads a watch stream to its end (timeoutSeconds ends it).
func watch(t *testing.T, path string) []watchEvent {
	t.Helper()
	res, err := http.Get(server + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var events []watchEvent
	dec := json.NewDecoder(res.Body)
	for dec.More() {
		var e watchEvent
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}

func TestList(t *testing.T) {
	if namespace != "demo" {
		t.Fatalf("kubeconfig namespace %q, want the recording's demo", namespace)
	}
	var list configMapList
	get(t, "/api/v1/namespaces/"+namespace+"/configmaps?limit=2", &list)
	if len(list.Items) != 2 || list.Items[0].Metadata.Name != "cm-01" {
		t.Fatalf("first page: %+v", list.Items)
	}
	var all configMapList
	get(t, "/api/v1/namespaces/"+namespace+"/configmaps", &all)
	if len(all.Items) != 6 || all.Metadata.ResourceVersion != "114" {
		t.Fatalf("list at %s: %d items", all.Metadata.ResourceVersion, len(all.Items))
	}
}

func TestWatchFromAnOlderResourceVersion(t *testing.T) {
	events := watch(t, "/api/v1/namespaces/"+namespace+"/configmaps?watch=1&resourceVersion=111&timeoutSeconds=1")
	var got []string
	for _, e := range events {
		got = append(got, e.Type+" "+e.Object.Metadata.Name)
	}
	want := "MODIFIED cm-02,ADDED cm-07,DELETED cm-03"
	if strings.Join(got, ",") != want {
		t.Fatalf("events %v, want %s", got, want)
	}
}

// Runs last (tests run in file order): the compaction moves the floor for everything after it.
func TestWatchGets410AfterCompaction(t *testing.T) {
	res, err := http.Post(server+"/_kubetape/compact", "application/json", bytes.NewBufferString("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("compact: %s", res.Status)
	}
	events := watch(t, "/api/v1/namespaces/"+namespace+"/configmaps?watch=1&resourceVersion=111&timeoutSeconds=1")
	if len(events) != 1 || events[0].Type != "ERROR" || events[0].Object.Code != 410 || events[0].Object.Reason != "Expired" {
		t.Fatalf("events %+v, want one ERROR 410 Expired", events)
	}
}
