//! The options every command takes before or after its name (`ome-top --kubeconfig K fleet`
//! is `ome-top fleet --kubeconfig K`): clap parses them once, as global flags of `Cli`; this
//! module hands each to the subcommand that reads it, so no subcommand declares its own copy
//! (a copy would shadow the global one and make the order matter).
//!
//! Owns: `Cli::resolved`. No business logic.

use crate::cli::{Cli, Command};

impl Cli {
    /// The command line with the global options copied into the subcommand's arguments.
    pub fn resolved(mut self) -> Cli {
        let g = &self.tui;
        match &mut self.command {
            Some(Command::Analyze(a)) => {
                a.cluster.kubeconfig = g.kubeconfig.clone();
                a.cluster.context = g.context.clone();
                a.cluster.namespace = g.namespace.clone();
                a.alfred_namespace = g.alfred_namespace.clone();
                a.scheduler_namespace = g.scheduler_namespace.clone();
                a.config = g.config.clone();
            }
            Some(Command::Explain(e)) => {
                let a = &mut e.analyze;
                a.cluster.kubeconfig = g.kubeconfig.clone();
                a.cluster.context = g.context.clone();
                a.cluster.namespace = g.namespace.clone();
                a.alfred_namespace = g.alfred_namespace.clone();
                a.scheduler_namespace = g.scheduler_namespace.clone();
                a.config = g.config.clone();
                a.explain = Some(e.pod.clone());
            }
            Some(Command::Dump(d)) => {
                d.cluster.kubeconfig = g.kubeconfig.clone();
                d.cluster.context = g.context.clone();
                d.cluster.namespace = g.namespace.clone();
                if let Some(ns) = &g.alfred_namespace {
                    d.alfred_namespace = ns.clone();
                }
                if let Some(ns) = &g.scheduler_namespace {
                    d.scheduler_namespace = ns.clone();
                }
            }
            Some(Command::Fleet(f)) => {
                f.kubeconfig = g.kubeconfig.clone();
                f.namespace = g.namespace.clone();
                f.readonly = g.readonly;
                f.alfred_namespace = g.alfred_namespace.clone();
                f.scheduler_namespace = g.scheduler_namespace.clone();
            }
            Some(
                Command::Demo(_)
                | Command::History(_)
                | Command::Info(_)
                | Command::Completions { .. }
                | Command::Man,
            )
            | None => {}
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::cli::{Cli, Command};

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(args).unwrap().resolved()
    }

    #[test]
    fn global_options_work_before_or_after_the_subcommand() {
        let before = parse(&["ome-top", "--kubeconfig", "k", "-n", "prod", "fleet"]);
        let after = parse(&["ome-top", "fleet", "--kubeconfig", "k", "-n", "prod"]);
        for cli in [before, after] {
            let Some(Command::Fleet(f)) = &cli.command else {
                panic!("{cli:?}")
            };
            assert_eq!(f.kubeconfig.as_deref(), Some("k".as_ref()));
            assert_eq!(f.namespace.as_deref(), Some("prod"));
        }
        let cli = parse(&["ome-top", "analyze", "--context", "c", "--config", "x.toml"]);
        let Some(Command::Analyze(a)) = &cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(a.cluster.context.as_deref(), Some("c"));
        assert_eq!(a.config.as_deref(), Some("x.toml".as_ref()));
        let cli = parse(&["ome-top", "demo", "--theme", "light", "--readonly"]);
        assert_eq!(cli.tui.theme.as_deref(), Some("light"));
        assert!(cli.tui.readonly);
        let cli = parse(&["ome-top", "--alfred-namespace", "alfred", "dump", "-o", "f"]);
        let Some(Command::Dump(d)) = &cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(d.alfred_namespace, "alfred");
        assert_eq!(d.scheduler_namespace, "ome");
    }
}
