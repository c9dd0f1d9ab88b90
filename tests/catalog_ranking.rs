//! Ranking quality of the catalog, measured on the largest real document we have:
//! Kubernetes v1.36 (`../shared/data/openapi/kubernetes-v1.36.swagger.json`, 1,123
//! operations; GitHub's REST description is not in the folder). 100 requests written as a
//! user would ask them, not copied from the summaries, each naming the operation a person
//! would pick; the expected operation must be in the top 5 for at least 90 of them.
//!
//! Run with `--nocapture` to see the hit rates and the misses.

use std::path::Path;

use httptool::json::ParseOptions;
use httptool::tool::{Catalog, ToolRegistry};

/// (what a user asks, the operation a person would pick).
const QUERIES: [(&str, &str); 100] = [
    // Pods and their subresources.
    (
        "show me the pods running in a namespace",
        "listCoreV1NamespacedPod",
    ),
    (
        "list every pod across all namespaces in the cluster",
        "listCoreV1PodForAllNamespaces",
    ),
    ("get the details of one pod", "readCoreV1NamespacedPod"),
    ("start a new pod", "createCoreV1NamespacedPod"),
    ("kill a pod", "deleteCoreV1NamespacedPod"),
    (
        "remove all pods in a namespace at once",
        "deleteCoreV1CollectionNamespacedPod",
    ),
    (
        "fetch the logs of a pod's container",
        "readCoreV1NamespacedPodLog",
    ),
    (
        "run a command inside a pod with exec",
        "connectCoreV1GetNamespacedPodExec",
    ),
    (
        "forward a local port to a pod",
        "connectCoreV1GetNamespacedPodPortforward",
    ),
    (
        "attach to a running pod",
        "connectCoreV1PostNamespacedPodAttach",
    ),
    (
        "evict a pod from its node",
        "createCoreV1NamespacedPodEviction",
    ),
    ("bind a pod to a node", "createCoreV1NamespacedPodBinding"),
    ("check the status of a pod", "readCoreV1NamespacedPodStatus"),
    ("patch the labels of a pod", "patchCoreV1NamespacedPod"),
    (
        "add an ephemeral debug container to a pod",
        "patchCoreV1NamespacedPodEphemeralcontainers",
    ),
    (
        "resize the resources of a pod",
        "replaceCoreV1NamespacedPodResize",
    ),
    (
        "follow changes to pods in a namespace",
        "watchCoreV1NamespacedPodList",
    ),
    // Core objects.
    ("list all namespaces", "listCoreV1Namespace"),
    ("make a new namespace", "createCoreV1Namespace"),
    ("delete a namespace", "deleteCoreV1Namespace"),
    ("finalize a namespace", "replaceCoreV1NamespaceFinalize"),
    ("list the nodes of the cluster", "listCoreV1Node"),
    ("show one node", "readCoreV1Node"),
    ("update the status of a node", "patchCoreV1NodeStatus"),
    ("proxy a request to a node", "connectCoreV1GetNodeProxy"),
    (
        "list config maps in a namespace",
        "listCoreV1NamespacedConfigMap",
    ),
    ("read a configmap", "readCoreV1NamespacedConfigMap"),
    ("create a config map", "createCoreV1NamespacedConfigMap"),
    ("change a configmap", "patchCoreV1NamespacedConfigMap"),
    (
        "list the secrets of a namespace",
        "listCoreV1NamespacedSecret",
    ),
    ("store a new secret", "createCoreV1NamespacedSecret"),
    ("delete a secret", "deleteCoreV1NamespacedSecret"),
    (
        "list services in a namespace",
        "listCoreV1NamespacedService",
    ),
    ("expose a new service", "createCoreV1NamespacedService"),
    ("get a service", "readCoreV1NamespacedService"),
    (
        "proxy http to a service",
        "connectCoreV1GetNamespacedServiceProxy",
    ),
    (
        "list service accounts",
        "listCoreV1NamespacedServiceAccount",
    ),
    (
        "create a service account",
        "createCoreV1NamespacedServiceAccount",
    ),
    (
        "request a token for a service account",
        "createCoreV1NamespacedServiceAccountToken",
    ),
    (
        "list persistent volume claims in a namespace",
        "listCoreV1NamespacedPersistentVolumeClaim",
    ),
    (
        "claim storage with a new persistent volume claim",
        "createCoreV1NamespacedPersistentVolumeClaim",
    ),
    ("list the persistent volumes", "listCoreV1PersistentVolume"),
    ("delete a persistent volume", "deleteCoreV1PersistentVolume"),
    (
        "list the events of a namespace",
        "listCoreV1NamespacedEvent",
    ),
    (
        "show resource quotas of a namespace",
        "listCoreV1NamespacedResourceQuota",
    ),
    (
        "set a resource quota",
        "createCoreV1NamespacedResourceQuota",
    ),
    ("list limit ranges", "listCoreV1NamespacedLimitRange"),
    (
        "list the endpoints of a namespace",
        "listCoreV1NamespacedEndpoints",
    ),
    (
        "list replication controllers",
        "listCoreV1NamespacedReplicationController",
    ),
    (
        "scale a replication controller",
        "patchCoreV1NamespacedReplicationControllerScale",
    ),
    ("list pod templates", "listCoreV1NamespacedPodTemplate"),
    (
        "health of the control plane components",
        "listCoreV1ComponentStatus",
    ),
    // Workloads.
    (
        "list the deployments in a namespace",
        "listAppsV1NamespacedDeployment",
    ),
    (
        "roll out a new deployment",
        "createAppsV1NamespacedDeployment",
    ),
    ("get one deployment", "readAppsV1NamespacedDeployment"),
    ("delete a deployment", "deleteAppsV1NamespacedDeployment"),
    (
        "scale a deployment to more replicas",
        "patchAppsV1NamespacedDeploymentScale",
    ),
    (
        "how many replicas does a deployment have",
        "readAppsV1NamespacedDeploymentScale",
    ),
    (
        "rollout status of a deployment",
        "readAppsV1NamespacedDeploymentStatus",
    ),
    (
        "list deployments in every namespace",
        "listAppsV1DeploymentForAllNamespaces",
    ),
    ("list daemon sets", "listAppsV1NamespacedDaemonSet"),
    ("create a daemonset", "createAppsV1NamespacedDaemonSet"),
    ("list stateful sets", "listAppsV1NamespacedStatefulSet"),
    (
        "scale a statefulset",
        "patchAppsV1NamespacedStatefulSetScale",
    ),
    ("list replica sets", "listAppsV1NamespacedReplicaSet"),
    (
        "list controller revisions",
        "listAppsV1NamespacedControllerRevision",
    ),
    ("run a batch job", "createBatchV1NamespacedJob"),
    ("list jobs in a namespace", "listBatchV1NamespacedJob"),
    ("status of a job", "readBatchV1NamespacedJobStatus"),
    ("schedule a cron job", "createBatchV1NamespacedCronJob"),
    ("list cronjobs", "listBatchV1NamespacedCronJob"),
    ("delete a cron job", "deleteBatchV1NamespacedCronJob"),
    (
        "autoscale pods with a horizontal pod autoscaler",
        "createAutoscalingV2NamespacedHorizontalPodAutoscaler",
    ),
    (
        "list horizontal pod autoscalers",
        "listAutoscalingV2NamespacedHorizontalPodAutoscaler",
    ),
    (
        "create a pod disruption budget",
        "createPolicyV1NamespacedPodDisruptionBudget",
    ),
    (
        "list pod disruption budgets",
        "listPolicyV1NamespacedPodDisruptionBudget",
    ),
    // Access control and authentication.
    ("list cluster roles", "listRbacAuthorizationV1ClusterRole"),
    (
        "create a cluster role",
        "createRbacAuthorizationV1ClusterRole",
    ),
    (
        "grant a cluster role with a binding",
        "createRbacAuthorizationV1ClusterRoleBinding",
    ),
    (
        "list the roles in a namespace",
        "listRbacAuthorizationV1NamespacedRole",
    ),
    (
        "bind a role to a user in a namespace",
        "createRbacAuthorizationV1NamespacedRoleBinding",
    ),
    (
        "list role bindings",
        "listRbacAuthorizationV1NamespacedRoleBinding",
    ),
    (
        "check whether I am allowed to do something",
        "createAuthorizationV1SelfSubjectAccessReview",
    ),
    ("review a bearer token", "createAuthenticationV1TokenReview"),
    ("who am I", "createAuthenticationV1SelfSubjectReview"),
    (
        "list certificate signing requests",
        "listCertificatesV1CertificateSigningRequest",
    ),
    (
        "approve a certificate signing request",
        "replaceCertificatesV1CertificateSigningRequestApproval",
    ),
    // Networking, storage, scheduling, extensions.
    (
        "list ingresses in a namespace",
        "listNetworkingV1NamespacedIngress",
    ),
    ("create an ingress", "createNetworkingV1NamespacedIngress"),
    ("list ingress classes", "listNetworkingV1IngressClass"),
    (
        "list network policies",
        "listNetworkingV1NamespacedNetworkPolicy",
    ),
    (
        "create a network policy",
        "createNetworkingV1NamespacedNetworkPolicy",
    ),
    ("list storage classes", "listStorageV1StorageClass"),
    ("list the csi drivers", "listStorageV1CSIDriver"),
    ("list volume attachments", "listStorageV1VolumeAttachment"),
    ("list priority classes", "listSchedulingV1PriorityClass"),
    ("list the runtime classes", "listNodeV1RuntimeClass"),
    (
        "list custom resource definitions",
        "listApiextensionsV1CustomResourceDefinition",
    ),
    (
        "register a custom resource definition",
        "createApiextensionsV1CustomResourceDefinition",
    ),
    (
        "which version of kubernetes is the server running",
        "getCodeVersion",
    ),
];

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn catalog_ranking_on_kubernetes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/openapi/kubernetes-v1.36.swagger.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = ParseOptions::new().parse(&text).unwrap();
    let import = httptool::openapi::import(&doc).unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    assert_eq!(registry.len(), 1123);
    for (_, expected) in QUERIES.iter() {
        assert!(registry.contains(expected), "no operation {}", expected);
    }
    let catalog = Catalog::new(registry);
    let (mut top1, mut top5) = (0, 0);
    for (query, expected) in QUERIES.iter() {
        let hits = catalog.search(query, 5);
        let rank = hits.iter().position(|hit| hit.name == *expected);
        match rank {
            Some(0) => top1 += 1,
            Some(_) => {}
            None => {
                let names: Vec<&str> = hits.iter().map(|h| h.name.as_str()).collect();
                println!("miss: {:?} wants {}, got {:?}", query, expected, names);
            }
        }
        if rank.is_some() {
            top5 += 1;
        }
    }
    println!("top-1: {}/100, top-5: {}/100", top1, top5);
    assert!(top5 >= 90, "top-5 hit rate {}/100 is under 90", top5);
}
