//! The server's settings: the same keys as the CLI flags (editors/README.md), read
//! from `initializationOptions`, `workspace/didChangeConfiguration` and
//! `workspace/configuration`. Owns parsing and the mapping onto the engine's
//! `CheckConfig` and `LoadOptions` (`cargo.features`, `cargo.noDefaultFeatures`,
//! `cargo.target`, named as rust-analyzer names them); a key the engine does not
//! take yet is kept here until it does.

use std::path::PathBuf;

use lsp_types::DiagnosticSeverity;
use serde::Deserialize;

use crate::engine::load::Features;
use crate::engine::{CheckConfig, LoadOptions};

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// `--allow FILE`: allowlisted functions.
    pub allow: Option<PathBuf>,
    /// `--baseline FILE`: findings recorded as known.
    pub baseline: Option<PathBuf>,
    /// `--exemptions FILE`: the reviewed list of exemptions.
    pub exemptions: Option<PathBuf>,
    /// `--line-only KIND`: exemptions of these kinds cover only their line.
    pub line_only: Vec<String>,
    /// `--scratch path::Type`: types whose fields count as reused memory.
    pub scratch: Vec<String>,
    /// `--strict-panics`: what a panic path computes before it panics is checked.
    pub strict_panics: bool,
    /// `--root PATTERN`: extra roots by path.
    pub roots: Vec<String>,
    /// The severity of findings (error findings are always errors).
    pub severity: Severity,
    /// Run build scripts and proc macros (`--no-build-scripts` when false).
    pub build_scripts: bool,
    /// Features and target, as rust-analyzer's `cargo.*` settings.
    pub cargo: CargoSettings,
    /// How findings the baseline lists are shown.
    pub baselined: BaselinedFindings,
    /// The cargo projects to serve, as rust-analyzer's `linkedProjects`: Cargo.toml
    /// files or the directories that hold them, relative to the first workspace
    /// folder. When set, the projects are not searched for (`discovery`).
    pub linked_projects: Vec<PathBuf>,
}

/// How the editor shows a finding the baseline lists (CI does not fail on it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BaselinedFindings {
    /// A hint: visible where you look, no squiggle.
    #[default]
    Hint,
    /// Not shown.
    Hide,
}

/// `cargo.features` (`"all"` or a list), `cargo.noDefaultFeatures`, `cargo.target`:
/// rust-analyzer's names, so one workspace setting can serve both servers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CargoSettings {
    pub features: FeatureList,
    pub no_default_features: bool,
    pub target: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum FeatureList {
    /// `"all"`.
    All(AllKeyword),
    Listed(Vec<String>),
}

impl Default for FeatureList {
    fn default() -> Self {
        FeatureList::Listed(Vec::new())
    }
}

/// The one word `cargo.features` takes instead of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllKeyword {
    All,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            allow: None,
            baseline: None,
            exemptions: None,
            line_only: Vec::new(),
            scratch: Vec::new(),
            strict_panics: false,
            roots: Vec::new(),
            severity: Severity::Warning,
            build_scripts: true,
            cargo: CargoSettings::default(),
            baselined: BaselinedFindings::Hint,
            linked_projects: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    #[default]
    Warning,
    #[serde(alias = "info")]
    Information,
    Hint,
}

impl Severity {
    pub fn to_lsp(self) -> DiagnosticSeverity {
        match self {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Information => DiagnosticSeverity::INFORMATION,
            Severity::Hint => DiagnosticSeverity::HINT,
        }
    }
}

impl Settings {
    /// Reads settings from the object clients send. Accepts the keys bare (as in
    /// `initializationOptions`) or under `noalloc` / `settings.noalloc`. `None` when
    /// the value carries no noalloc settings at all (e.g. `{"settings": null}`);
    /// an unreadable value falls back key by key to the defaults and says which keys
    /// it could not read.
    pub fn from_json(value: &serde_json::Value) -> Option<(Settings, Vec<String>)> {
        let section = match (value.get("settings"), value.get("noalloc")) {
            // Under `settings`, only the `noalloc` section is ours.
            (Some(settings), _) => settings.get("noalloc")?,
            (None, Some(noalloc)) => noalloc,
            (None, None) => value,
        };
        let object = section.as_object()?;
        if let Ok(settings) = serde_json::from_value::<Settings>(section.clone()) {
            return Some((settings, Vec::new()));
        }
        // Key by key, so one bad value does not throw away the rest.
        let mut settings = Settings::default();
        let mut bad = Vec::new();
        for (key, value) in object {
            let single = serde_json::json!({ key: value });
            match serde_json::from_value::<Settings>(single) {
                Ok(one) => settings.merge_key(key, one),
                Err(_) => bad.push(key.clone()),
            }
        }
        Some((settings, bad))
    }

    fn merge_key(&mut self, key: &str, from: Settings) {
        match key {
            "allow" => self.allow = from.allow,
            "baseline" => self.baseline = from.baseline,
            "exemptions" => self.exemptions = from.exemptions,
            "lineOnly" => self.line_only = from.line_only,
            "scratch" => self.scratch = from.scratch,
            "strictPanics" => self.strict_panics = from.strict_panics,
            "roots" => self.roots = from.roots,
            "severity" => self.severity = from.severity,
            "buildScripts" => self.build_scripts = from.build_scripts,
            "cargo" => self.cargo = from.cargo,
            "baselined" => self.baselined = from.baselined,
            "linkedProjects" => self.linked_projects = from.linked_projects,
            _ => {}
        }
    }

    /// What the engine is asked to check, with the workspace's Cargo.toml metadata
    /// filling what the editor leaves unset, and the allowlist (built-in, then the
    /// `allow` file of the settings or of the metadata). `baseline` and `exemptions`
    /// are applied to the diagnostics (`lsp::adoption`), not to the check.
    pub fn check_config_for(&self, root: &std::path::Path) -> Result<CheckConfig, String> {
        let mut config = self.check_config().with_manifest(root)?;
        let files = crate::adoption::settings::AdoptionFiles {
            allow: self.allow.as_ref().map(|file| root.join(file)),
            ..Default::default()
        }
        .with_manifest(root)?;
        config.allow = crate::adoption::allowlist::with_file(files.allow.as_deref()).map_err(|err| err.to_string())?;
        Ok(config)
    }

    /// How the workspace is loaded: build scripts, features, target.
    pub fn load_options(&self) -> LoadOptions {
        let (all, names) = match &self.cargo.features {
            FeatureList::All(AllKeyword::All) => (true, Vec::new()),
            FeatureList::Listed(names) => (false, names.clone()),
        };
        LoadOptions {
            build_scripts: self.build_scripts,
            std_source: None,
            features: Features { all, no_default: self.cargo.no_default_features, names },
            target: self.cargo.target.clone(),
            defer_intrinsics: true,
            leave_out_proc_macro_dependencies: true,
            release: false,
        }
    }

    /// Whether going from `self` to `new` needs the workspace loaded again.
    pub fn needs_reload(&self, new: &Settings) -> bool {
        self.build_scripts != new.build_scripts || self.cargo != new.cargo
    }

    /// What the engine is asked to check from the editor's settings alone.
    pub fn check_config(&self) -> CheckConfig {
        CheckConfig {
            roots: self.roots.clone(),
            cache_dir: crate::engine::default_cache_dir(),
            line_only: self.line_only.clone(),
            scratch: self.scratch.clone(),
            strict_panics: self.strict_panics,
            // Names resolved up front on every core, as `--check` does (the first
            // diagnostics of `specifics` come 0.4-1.2 s sooner), and a second core
            // walking ahead of the first analysis (0.4-0.5 s sooner again). On
            // glibc's malloc this made every later edit 10-15 % slower; see
            // `allocator`.
            jobs: None,
            ..CheckConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_allowlist_comes_from_the_settings_or_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"w\"\n[package.metadata.noalloc]\nallow = \"meta.allow\"\n",
        )
        .unwrap();
        std::fs::write(root.join("meta.allow"), "measured: w::from_metadata\n").unwrap();
        std::fs::write(root.join("editor.allow"), "debug: w::from_editor\n").unwrap();
        let built_in = crate::adoption::allowlist::built_in().len();
        let paths = |config: CheckConfig| config.allow[built_in..].iter().map(|e| e.path.clone()).collect::<Vec<_>>();

        let from_manifest = Settings::default().check_config_for(root).unwrap();
        assert_eq!(paths(from_manifest), ["w::from_metadata"]);

        let (editor, _) = Settings::from_json(&json!({"allow": "editor.allow"})).unwrap();
        assert_eq!(paths(editor.check_config_for(root).unwrap()), ["w::from_editor"]);

        std::fs::write(root.join("editor.allow"), "debug: w::ok\nsometimes: w::bad\n").unwrap();
        let err = editor.check_config_for(root).unwrap_err();
        assert!(err.contains("editor.allow:2"), "{err}");
    }

    #[test]
    fn bare_nested_and_partial_settings() {
        let (bare, bad) = Settings::from_json(&json!({"severity": "error", "roots": ["a::*"]})).unwrap();
        assert_eq!(bare.severity, Severity::Error);
        assert_eq!(bare.roots, ["a::*"]);
        assert!(bare.build_scripts);
        assert!(bad.is_empty());

        let (nested, _) =
            Settings::from_json(&json!({"settings": {"noalloc": {"lineOnly": ["debug"], "buildScripts": false}}}))
                .unwrap();
        assert_eq!(nested.line_only, ["debug"]);
        assert!(!nested.build_scripts);
        assert_eq!(nested.severity, Severity::Warning);

        let (partial, bad) = Settings::from_json(&json!({"severity": "loud", "allow": "x.allow"})).unwrap();
        assert_eq!(partial.severity, Severity::Warning);
        assert_eq!(partial.allow, Some(PathBuf::from("x.allow")));
        assert_eq!(bad, ["severity"]);

        assert_eq!(Settings::from_json(&json!({"settings": null})), None);
        assert_eq!(Settings::from_json(&json!({"settings": {"rust-analyzer": {}}})), None);
        assert_eq!(Settings::from_json(&json!(null)), None);
    }

    #[test]
    fn settings_the_engine_takes_reach_the_check_config() {
        let (settings, bad) = Settings::from_json(
            &json!({"roots": ["a::*"], "lineOnly": ["debug"], "scratch": ["app::Scratch"], "strictPanics": true}),
        )
        .unwrap();
        assert!(bad.is_empty());
        let config = settings.check_config();
        assert_eq!(config.roots, ["a::*"]);
        assert_eq!(config.line_only, ["debug"]);
        assert_eq!(config.scratch, ["app::Scratch"]);
        assert!(config.strict_panics);
    }

    #[test]
    fn cargo_features_and_target_as_rust_analyzer_names_them() {
        let (listed, bad) = Settings::from_json(
            &json!({"cargo": {"features": ["gated"], "noDefaultFeatures": true, "target": "x86_64-unknown-linux-gnu"}}),
        )
        .unwrap();
        assert!(bad.is_empty());
        let options = listed.load_options();
        assert_eq!(options.features, Features { all: false, no_default: true, names: vec!["gated".to_owned()] });
        assert_eq!(options.target.as_deref(), Some("x86_64-unknown-linux-gnu"));
        assert!(Settings::default().needs_reload(&listed));

        let (all, _) = Settings::from_json(&json!({"settings": {"noalloc": {"cargo": {"features": "all"}}}})).unwrap();
        assert!(all.load_options().features.all);

        let (_, bad) = Settings::from_json(&json!({"cargo": {"features": "some"}, "severity": "hint"})).unwrap();
        assert_eq!(bad, ["cargo"]);
    }
}
