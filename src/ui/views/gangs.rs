//! The Gangs view: `tui-tree-widget` over topology key → domain → gang → pods. Only open
//! branches are turned into tree items (a closed branch gets one placeholder child so it
//! still shows as expandable), so a frame costs what is visible, not the whole fleet.
//!
//! The selected gang's pin reasoning is drawn beside the tree. A label too long for its row is
//! cut with `…`.
//!
//! Owns: `draw_gangs`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;
use tui_tree_widget::{Tree, TreeItem, TreeState};

use crate::app::layout::{screen, Area};
use crate::app::model::gangs::TreeNode;
use crate::app::state::AppState;
use crate::app::table::columns::clip;
use crate::app::views::gangs::pin_lines;
use crate::ui::theme::{Slot, Theme};

/// Cells before a label: the highlight symbol and the branch symbol, two each.
const TREE_MARKS: u16 = 4;

/// Tree items for `nodes` at `path`, each label cut with `…` to the `room` cells left beside
/// its indentation (the tree widget would cut it mid-word without a mark).
fn items<'a>(
    nodes: &'a [TreeNode],
    path: &mut Vec<String>,
    room: u16,
    state: &AppState,
    theme: &Theme,
) -> Vec<TreeItem<'a, String>> {
    nodes
        .iter()
        .filter_map(|n| {
            let indent = u16::try_from(path.len() * 2).unwrap_or(u16::MAX);
            path.push(n.id.clone());
            let label = clip(&n.label, room.saturating_sub(indent));
            let text = Line::styled(label, theme.tone(n.tone));
            let item = if n.children.is_empty() {
                Some(TreeItem::new_leaf(n.id.clone(), text))
            } else {
                let children = if state.gang_nav().open.contains(path) {
                    items(&n.children, path, room, state, theme)
                } else {
                    vec![TreeItem::new_leaf(String::new(), "")]
                };
                TreeItem::new(n.id.clone(), text, children).ok()
            };
            path.pop();
            item
        })
        .collect()
}

/// Draws the gang tree in `area` (the body), with the selected gang's pin reasoning where
/// the shared layout puts it: beside the tree, or below it on a narrow terminal.
pub fn draw_gangs(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let s = screen(state);
    let rect = |a: Area| Rect::new(a.x, a.y, a.width, a.height).intersection(area);
    let (tree, why) = (rect(s.table), rect(s.panel));
    draw_tree(frame, tree, state, theme);
    if !why.is_empty() {
        draw_pin(frame, why, state, theme);
    }
}

fn draw_pin(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let lines: Vec<Line> = pin_lines(state)
        .0
        .into_iter()
        .map(|l| Line::styled(l.text, theme.tone(l.tone)))
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::Border))
        .title(Span::styled(" Why this pin ", theme.style(Slot::Header)));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn draw_tree(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    // Borders take two cells, then the marks before every label.
    let room = area.width.saturating_sub(2 + TREE_MARKS);
    let roots = &state.models().gangs.roots;
    let tree_items = items(roots, &mut Vec::new(), room, state, theme);
    // The tree holds the gangs of the namespace scope, if one is set.
    let gangs: usize = (state.models().gangs.roots.iter())
        .flat_map(|key| &key.children)
        .map(|domain| domain.children.len())
        .sum();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Span::styled(
            format!(" Gangs [{gangs}] (space/enter expand) "),
            theme.style(Slot::Header),
        ));
    if tree_items.is_empty() {
        let why = match state.namespace_scope() {
            Some(ns) => format!("  no gangs in namespace {ns}"),
            None => "  no gangs (no PodGroups or gang pods)".to_string(),
        };
        frame.render_widget(
            Line::styled(why, theme.style(Slot::Muted)),
            block.inner(area),
        );
        frame.render_widget(block, area);
        return;
    }
    let Ok(tree) = Tree::new(&tree_items) else {
        return;
    };
    let tree = tree
        .block(block)
        .highlight_style(theme.style(Slot::Selection))
        .highlight_symbol("▶ ");
    let mut ts = TreeState::default();
    for path in &state.gang_nav().open {
        ts.open(path.clone());
    }
    ts.select(state.gang_nav().selected.clone());
    ts.scroll_down(state.gang_nav().offset);
    frame.render_stateful_widget(tree, area, &mut ts);
}
