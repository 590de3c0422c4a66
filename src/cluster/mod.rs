//! The only layer that talks to Kubernetes: conversion of Kubernetes objects into the engine's
//! model, snapshot files, (live) listing and on-demand reads, objects as YAML, and the
//! operator's writes (`ops`).

pub mod convert;
pub mod convert_event;
pub mod convert_ome;
pub mod convert_placement;
pub mod convert_resources;
pub mod live;
pub mod object_yaml;
pub mod ops;
pub mod snapshot_file;
pub mod wire;
