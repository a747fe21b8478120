/** `kubectl servicenet trace --help`, laid out as kubectl's own command help (description, Examples, Options, Usage). */

export const traceHelp = `Trace where a new connection goes through a node's kube-proxy rules.

 SOURCE is pod/NAME (in the current namespace, or -n), node/NAME (the node itself, or a host-network process), or an IP address outside the cluster (then --node is required). DESTINATION is svc/NAME[:PORT] (the Service's ClusterIP; PORT is a port name or number and may be left out for a single-port Service) or IP:PORT, any ClusterIP, external IP, LoadBalancer IP or node address with a NodePort, of either IP family ([IPv6]:PORT).

 The rules are computed from the API as the node's kube-proxy would write them, or read from the files a kube-proxy wrote (--rules). Every random endpoint choice is followed, so each possible outcome is printed with its probability: the chains and rules it hits with their comments, the endpoint it reaches, whether the source is masqueraded, and for a dropped or rejected connection the reason in words.

Examples:
  # Trace a connection from a pod to the Service "web" on its port named "http"
  kubectl servicenet trace pod/client svc/web:http
  
  # Trace a connection from node-a itself to a NodePort on its own address, in nftables mode
  kubectl servicenet trace node/node-a 192.168.0.2:30080 --proxy-mode=nftables
  
  # Trace a client outside the cluster reaching a LoadBalancer IP through node-b, as JSON
  kubectl servicenet trace 203.0.113.7 198.51.100.10:443 --node=node-b -o json
  
  # Trace an IPv6 ClusterIP through the rules a kube-proxy wrote in dry-run mode
  kubectl servicenet trace pod/client [fd00:10:96::a]:80 --rules=/var/lib/kube-proxy/iptables-ipv6.rules

Options:
    --cluster-cidr='':
	The CIDR range of the pods in the cluster, one per IP family (kube-proxy's --cluster-cidr). Traffic to a ClusterIP from outside it is masqueraded. Defaults to the node's spec.podCIDRs.

    --node='':
	The node whose rules to evaluate. Defaults to the node of the source pod, or the source node.

    --node-ip='':
	The node's IP addresses, one per IP family (kube-proxy's --node-ip). Defaults to the node's InternalIP and ExternalIP addresses.

    -o, --output='':
	Output format. One of: (json).

    --protocol='':
	The protocol of the connection when DESTINATION is IP:PORT (TCP, UDP or SCTP). Defaults to the protocol of the Service port at that address, else TCP.

    --proxy-mode='iptables':
	Which proxy mode the node's kube-proxy runs: iptables or nftables.

    --rules=[]:
	Files a kube-proxy wrote (iptables-restore input or nft transactions, as its --dry-run directory holds them), applied in the order given, instead of rules computed from the API.

Usage:
  kubectl servicenet trace SOURCE DESTINATION [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

/** `kubectl servicenet serve --help`, laid out as `kubectl proxy --help`. */
export const serveHelp = `Serve the dataplane page on a local port: per node, each Service port's endpoints after topology and traffic-policy filtering, as that node's kube-proxy categorizes them, and a form that traces a flow through the node's rules (as 'kubectl servicenet trace' does).

 The page reads Nodes, Services and EndpointSlices through the current kubeconfig on every request; it holds no state.

Examples:
  # Serve the dataplane page on localhost:8002
  kubectl servicenet serve
  
  # Serve it on an arbitrary local port; the chosen port is printed to stdout
  kubectl servicenet serve --port=0
  
  # Trace with nftables rules by default
  kubectl servicenet serve --proxy-mode=nftables

Options:
    --address='127.0.0.1':
	The IP address on which to serve on.

    -p, --port=8002:
	The port on which to serve the page. Set to 0 to pick a random port.

    --proxy-mode='iptables':
	Which proxy mode the nodes' kube-proxy runs, for traces: iptables or nftables. The form can change it per trace.

Usage:
  kubectl servicenet serve [--port=PORT] [--address=ADDRESS] [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

/** `kubectl servicenet --help`: the plugin's own commands. */
export const servicenetHelp = `Service-networking views that kubectl does not have.

Available Commands:
  serve         Serve the dataplane page: each node's Service endpoints and a form to trace a flow
  trace         Trace where a new connection goes through a node's kube-proxy rules

Usage:
  kubectl servicenet [command] [options]

Use "kubectl servicenet <command> --help" for more information about a command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;
