/**
 * The Table columns kube-apiserver's printers declare for the common built-in kinds
 * (kubernetes pkg/printers/internalversion/printers.go, AddHandlers, as of v1.26): names, types,
 * priorities (1 = shown by `kubectl get -o wide` only) and descriptions (the printers take most
 * from the types' API documentation, copied here from the v1.26 OpenAPI). Serve uses them for a
 * built-in resource whose recording holds no Table; the cells are builtin-table-rows.ts's.
 */
import { DEFAULT_TABLE_COLUMNS } from './table-default-columns';
import type { TableColumnDefinition } from './table-column';

const [NAME_COLUMN, CREATED_AT] = DEFAULT_TABLE_COLUMNS;
const NAME = NAME_COLUMN!.description;
const CREATION = CREATED_AT!.description;

/** API documentation of the fields the printers describe their columns with. */
const DOC = {
  PODIP: "IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
  NODENAME: "NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.",
  NOMINATED: "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
  GATES: "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
  RS_REPLICAS: "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
  RS_STATUS_REPLICAS: "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
  RS_READY: "readyReplicas is the number of pods targeted by this ReplicaSet with a Ready Condition.",
  RS_SELECTOR: "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  DS_DESIRED: "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
  DS_CURRENT: "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
  DS_READY: "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
  DS_UPDATED: "The total number of nodes that are running updated daemon pod",
  DS_AVAILABLE: "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
  NODESELECTOR: "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
  DS_SELECTOR: "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  JOB_SUCCEEDED: "The number of pods which reached phase Succeeded.",
  JOB_SELECTOR: "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  CJ_SCHEDULE: "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
  CJ_SUSPEND: "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
  CJ_ACTIVE: "A list of pointers to currently running jobs.",
  CJ_LAST: "Information when was the last time the job was successfully scheduled.",
  SVC_TYPE: "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types\n\nPossible enum values:\n - `\"ClusterIP\"` means a service will only be accessible inside the cluster, via the cluster IP.\n - `\"ExternalName\"` means a service consists of only a reference to an external name that kubedns or equivalent will return as a CNAME record, with no exposing or proxying of any pods involved.\n - `\"LoadBalancer\"` means a service will be exposed via an external load balancer (if the cloud provider supports it), in addition to 'NodePort' type.\n - `\"NodePort\"` means a service will be exposed on one port of every node, in addition to 'ClusterIP' type.",
  SVC_CLUSTERIP: "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
  SVC_EXTERNALIPS: "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
  SVC_PORTS: "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
  SVC_SELECTOR: "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
  EP_SUBSETS: "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
  KUBELET: "Kubelet Version reported by the node.",
  ADDRESSES: "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example.",
  OSIMAGE: "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
  KERNEL: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
  CRI: "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
  EV_LAST: "The time at which the most recent occurrence of this event was recorded.",
  EV_TYPE: "Type of this event (Normal, Warning), new types could be added in the future",
  EV_REASON: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  EV_OBJECT: "The object that this event is about.",
  EV_FIELDPATH: "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
  EV_SOURCE: "The component reporting this event. Should be a short machine understandable string.",
  EV_MESSAGE: "A human-readable description of the status of this operation.",
  EV_FIRST: "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
  EV_COUNT: "The number of times this event has occurred.",
  SECRET_TYPE: "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
  SECRET_DATA: "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
  SA_SECRETS: "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret",
  PVC_PHASE: "phase represents the current phase of PersistentVolumeClaim.\n\nPossible enum values:\n - `\"Bound\"` used for PersistentVolumeClaims that are bound\n - `\"Lost\"` used for PersistentVolumeClaims that lost their underlying PersistentVolume. The claim was bound to a PersistentVolume and this volume does not exist any longer and all data on it was lost.\n - `\"Pending\"` used for PersistentVolumeClaims that are not yet bound",
  PVC_VOLUME: "volumeName is the binding reference to the PersistentVolume backing this claim.",
  PVC_CAPACITY: "capacity represents the actual resources of the underlying volume.",
  PVC_MODES: "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
  PVC_VOLUMEMODE: "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
  D_UPDATED: "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
  D_AVAILABLE: "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
  D_SELECTOR: "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
  CM_DATA: "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
} as const;

const CONTAINERS = 'Names of each container in the template.';
const IMAGES = 'Images referenced by each container in the template.';

type Col = [name: string, type: string, description: string, priority?: number];

function columns(...cols: Col[]): TableColumnDefinition[] {
  return cols.map(([name, type, description, priority]) => ({ name, type, format: name === 'Name' ? 'name' : '', description, priority: priority ?? 0 }));
}

const nameCol: Col = ['Name', 'string', NAME];
const ageCol: Col = ['Age', 'string', CREATION];
/** The wide columns of the workloads that hold a pod template: its containers, their images, the selector. */
const templateWide = (selector: string): Col[] => [['Containers', 'string', CONTAINERS, 1], ['Images', 'string', IMAGES, 1], ['Selector', 'string', selector, 1]];

/** Columns by `APIVERSION/KIND`. */
export const BUILTIN_TABLE_COLUMNS: Readonly<Record<string, readonly TableColumnDefinition[]>> = {
  'v1/Namespace': columns(nameCol, ['Status', 'string', 'The status of the namespace'], ageCol),
  'v1/Pod': columns(
    nameCol,
    ['Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'],
    ['Status', 'string', 'The aggregate status of the containers in this pod.'],
    ['Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'],
    ageCol,
    ['IP', 'string', DOC.PODIP, 1],
    ['Node', 'string', DOC.NODENAME, 1],
    ['Nominated Node', 'string', DOC.NOMINATED, 1],
    ['Readiness Gates', 'string', DOC.GATES, 1],
  ),
  'v1/ConfigMap': columns(nameCol, ['Data', 'string', DOC.CM_DATA], ageCol),
  'v1/Secret': columns(nameCol, ['Type', 'string', DOC.SECRET_TYPE], ['Data', 'string', DOC.SECRET_DATA], ageCol),
  'v1/Service': columns(
    nameCol,
    ['Type', 'string', DOC.SVC_TYPE],
    ['Cluster-IP', 'string', DOC.SVC_CLUSTERIP],
    ['External-IP', 'string', DOC.SVC_EXTERNALIPS],
    ['Port(s)', 'string', DOC.SVC_PORTS],
    ageCol,
    ['Selector', 'string', DOC.SVC_SELECTOR, 1],
  ),
  'apps/v1/Deployment': columns(
    nameCol,
    ['Ready', 'string', 'Number of the pod with ready state'],
    ['Up-to-date', 'string', DOC.D_UPDATED],
    ['Available', 'string', DOC.D_AVAILABLE],
    ageCol,
    ...templateWide(DOC.D_SELECTOR),
  ),
  'apps/v1/ReplicaSet': columns(
    nameCol,
    ['Desired', 'integer', DOC.RS_REPLICAS],
    ['Current', 'integer', DOC.RS_STATUS_REPLICAS],
    ['Ready', 'integer', DOC.RS_READY],
    ageCol,
    ...templateWide(DOC.RS_SELECTOR),
  ),
  'apps/v1/StatefulSet': columns(nameCol, ['Ready', 'string', 'Number of the pod with ready state'], ageCol, ['Containers', 'string', CONTAINERS, 1], ['Images', 'string', IMAGES, 1]),
  'apps/v1/DaemonSet': columns(
    nameCol,
    ['Desired', 'integer', DOC.DS_DESIRED],
    ['Current', 'integer', DOC.DS_CURRENT],
    ['Ready', 'integer', DOC.DS_READY],
    ['Up-to-date', 'integer', DOC.DS_UPDATED],
    ['Available', 'integer', DOC.DS_AVAILABLE],
    ['Node Selector', 'string', DOC.NODESELECTOR],
    ageCol,
    ...templateWide(DOC.DS_SELECTOR),
  ),
  'batch/v1/Job': columns(
    nameCol,
    ['Completions', 'string', DOC.JOB_SUCCEEDED],
    ['Duration', 'string', 'Time required to complete the job.'],
    ageCol,
    ...templateWide(DOC.JOB_SELECTOR),
  ),
  'batch/v1/CronJob': columns(
    nameCol,
    ['Schedule', 'string', DOC.CJ_SCHEDULE],
    ['Suspend', 'boolean', DOC.CJ_SUSPEND],
    ['Active', 'integer', DOC.CJ_ACTIVE],
    ['Last Schedule', 'string', DOC.CJ_LAST],
    ageCol,
    ...templateWide(DOC.JOB_SELECTOR),
  ),
  'v1/Node': columns(
    nameCol,
    ['Status', 'string', 'The status of the node'],
    ['Roles', 'string', 'The roles of the node'],
    ageCol,
    ['Version', 'string', DOC.KUBELET],
    ['Internal-IP', 'string', DOC.ADDRESSES, 1],
    ['External-IP', 'string', DOC.ADDRESSES, 1],
    ['OS-Image', 'string', DOC.OSIMAGE, 1],
    ['Kernel-Version', 'string', DOC.KERNEL, 1],
    ['Container-Runtime', 'string', DOC.CRI, 1],
  ),
  'v1/Event': columns(
    ['Last Seen', 'string', DOC.EV_LAST],
    ['Type', 'string', DOC.EV_TYPE],
    ['Reason', 'string', DOC.EV_REASON],
    ['Object', 'string', DOC.EV_OBJECT],
    ['Subobject', 'string', DOC.EV_FIELDPATH, 1],
    ['Source', 'string', DOC.EV_SOURCE, 1],
    ['Message', 'string', DOC.EV_MESSAGE],
    ['First Seen', 'string', DOC.EV_FIRST, 1],
    ['Count', 'string', DOC.EV_COUNT, 1],
    ['Name', 'string', NAME, 1],
  ),
  'v1/ServiceAccount': columns(nameCol, ['Secrets', 'string', DOC.SA_SECRETS], ageCol),
  'v1/Endpoints': columns(nameCol, ['Endpoints', 'string', DOC.EP_SUBSETS], ageCol),
  'v1/PersistentVolumeClaim': columns(
    nameCol,
    ['Status', 'string', DOC.PVC_PHASE],
    ['Volume', 'string', DOC.PVC_VOLUME],
    ['Capacity', 'string', DOC.PVC_CAPACITY],
    ['Access Modes', 'string', DOC.PVC_MODES],
    ['StorageClass', 'string', 'StorageClass of the pvc'],
    ageCol,
    ['VolumeMode', 'string', DOC.PVC_VOLUMEMODE, 1],
  ),
};
