//! Several nodes on one PostgreSQL (issue 12; docs/scaling.md "Beyond one machine").
//!
//! Built so far: the leases ([`lease`]: each node's, renewed by heartbeat, and the one
//! owner of each table with its epoch), a node's lease loop ([`node`]: renew, take over
//! the tables of expired nodes, tell when its own lease is lost) and the fencing of store
//! writes by them ([`crate::store::fence`]). Not built yet: the `--cluster` flag that runs a node with
//! them, the NATS proxy for sockets that land on another node, the room state shared
//! over NATS, takeover and hand-over of tables. Until then the server is one process and
//! nothing here runs in it.

pub mod lease;
pub mod node;
