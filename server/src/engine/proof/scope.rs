//! The code a visibility admits: the bodies of a crate's modules that can name
//! an item (a field, a static), with the items declared in their blocks. What
//! such an item holds is what that code puts there (`sealed_fields`,
//! `static_setup`).

use hir::db::HirDatabase;
use hir_def::{expr_store::Body, nameres::crate_def_map, AssocItemId, DefWithBodyId, ModuleDefId};

/// How many bodies a scope may hold before it is not read: past it, finding
/// what the code there does costs more than the precision is worth, and the
/// item is taken to hold what code outside may put there.
pub(crate) const MAX_SCOPE_BODIES: usize = 4096;

/// The bodies of the code of crate `krate` that `visibility` admits; `None` past
/// `MAX_SCOPE_BODIES`.
pub(crate) fn bodies_in_scope(
    db: &dyn HirDatabase,
    visibility: hir_def::visibility::Visibility,
    krate: ra_ap_ide_db::base_db::Crate,
) -> Option<Vec<DefWithBodyId>> {
    let def_map = crate_def_map(db, krate);
    let mut bodies: Vec<DefWithBodyId> = Vec::new();
    for (module_id, module) in def_map.modules() {
        if !visibility.is_visible_from(db, module_id) {
            continue;
        }
        scope_bodies(db, &module.scope, &mut bodies);
        bodies.extend(module.scope.unnamed_consts().map(DefWithBodyId::from));
        if bodies.len() > MAX_SCOPE_BODIES {
            return None;
        }
    }
    // The items declared in the bodies' blocks see what their module sees.
    let mut i = 0;
    while i < bodies.len() {
        let body = Body::of(db, bodies[i]);
        for (_, block_map) in body.blocks(db) {
            scope_bodies(db, &block_map[block_map.root_module_id()].scope, &mut bodies);
        }
        if bodies.len() > MAX_SCOPE_BODIES {
            return None;
        }
        i += 1;
    }
    Some(bodies)
}

/// The bodies a module's (or block's) scope declares: functions, statics,
/// consts, and the items of its traits and impls.
pub(crate) fn scope_bodies(
    db: &dyn HirDatabase,
    scope: &hir_def::item_scope::ItemScope,
    bodies: &mut Vec<DefWithBodyId>,
) {
    for def in scope.declarations() {
        match def {
            ModuleDefId::FunctionId(it) => bodies.push(it.into()),
            ModuleDefId::StaticId(it) => bodies.push(it.into()),
            ModuleDefId::ConstId(it) => bodies.push(it.into()),
            ModuleDefId::TraitId(it) => bodies.extend(assoc_bodies(&it.trait_items(db).items)),
            _ => {}
        }
    }
    for impl_ in scope.impls() {
        bodies.extend(assoc_bodies(&impl_.impl_items(db).items));
    }
}

fn assoc_bodies<N>(items: &[(N, AssocItemId)]) -> impl Iterator<Item = DefWithBodyId> + '_ {
    items.iter().filter_map(|(_, item)| match *item {
        AssocItemId::FunctionId(it) => Some(it.into()),
        AssocItemId::ConstId(it) => Some(it.into()),
        AssocItemId::TypeAliasId(_) => None,
    })
}
