//! Where a table's or a tournament's actor runs. On a single node it simply runs. In a
//! cluster (`crate::cluster`) it runs as the owner of its lease: claimed first when new,
//! fenced so that its writes stop the moment another node owns it, and reachable from the
//! other nodes through its command queue. The tables and the tournaments hand their
//! actors to a [`Placement`] and know nothing of NATS or leases.

use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

/// An actor to run, with what a cluster needs to place it.
pub struct Actor<C> {
    /// The table's or tournament's id (the lease's key).
    pub id: String,
    /// Its room.
    pub room: String,
    /// The lease this node holds on it already (restored, taken over, handed over), or
    /// `None` for a new one (claimed before the actor runs).
    pub epoch: Option<i64>,
    /// Its command queue, for what other nodes ask of it.
    pub commands: mpsc::Sender<C>,
    /// The actor itself.
    pub run: BoxFuture<'static, ()>,
}

/// How actors of one kind (commands `C`) are run; see the module docs.
pub trait Placement<C>: Send + Sync {
    /// The actor's whole life, to spawn.
    fn run(&self, actor: Actor<C>) -> BoxFuture<'static, ()>;

    /// The actor with this id ended for good (a table closed, a tournament over): its
    /// lease goes.
    fn release(&self, id: &str);
}

/// A single node: actors run as they are.
pub struct Alone;

impl<C> Placement<C> for Alone {
    fn run(&self, actor: Actor<C>) -> BoxFuture<'static, ()> {
        actor.run
    }

    fn release(&self, _id: &str) {}
}
