//! A Patchbay price-fetcher plugin in Rust, with no crates: `patchbay_plugin.h`
//! mirrored by hand with `#[repr(C)]`, and one `#[no_mangle] extern "C"` entry
//! point. It proves the ABI serves any language with a C FFI.
//!
//! One fetcher, ADA (Cardano), asks `{api_base_url}/v2/prices/ADA-{currency}/spot`
//! through the host's `http_get` and answers the amount exactly as the API sent
//! it; an error body (`{"errors":[{"id","message"}]}`) becomes one line.
//!
//! Build: `cargo build --release --offline` (or `rustc --edition 2021
//! --crate-type cdylib -O -o librust_price_plugin.so src/lib.rs`).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// patchbay_plugin.h, by hand. Keep the field order and types exactly.
// ---------------------------------------------------------------------------

const PB_PLUGIN_MAGIC: u32 = 0x5042_4159;
const PB_PLUGIN_ABI_VERSION: u32 = 1;
const PB_OK: c_int = 0;
const PB_ERR_DUPLICATE: c_int = 1;
const PB_ERR_INVALID_ARGUMENT: c_int = 2;
const PB_ERR_PLUGIN_FAILED: c_int = 4;
const PB_LOG_WARNING: c_int = 2;
const PB_LOG_ERROR: c_int = 3;
/// `pb_rank`: how early the host asks this plugin when others provide ADA too.
const PB_RANK_SECONDARY: u32 = 128;

#[repr(C)]
struct PbHttpResponse {
    struct_size: u32,
    status: i32,
    body: *const u8,
    body_length: usize,
    error: *const c_char,
}

type PbHttpCompletionFn = extern "C" fn(request_context: *mut c_void, response: *const PbHttpResponse);

#[repr(C)]
struct PbFetchRequest {
    struct_size: u32,
    currency: *const c_char,
    timeout_ms: u32,
}

#[repr(C)]
struct PbFetchResult {
    struct_size: u32,
    base: *const c_char,
    currency: *const c_char,
    amount: *const c_char,
    error: *const c_char,
}

type PbFetchCompletionFn = extern "C" fn(completion_context: *mut c_void, result: *const PbFetchResult);
type PbFetchFn = extern "C" fn(
    fetcher_context: *mut c_void,
    request: *const PbFetchRequest,
    completion: PbFetchCompletionFn,
    completion_context: *mut c_void,
);

#[repr(C)]
struct PbFetcher {
    struct_size: u32,
    symbol: *const c_char,
    display_name: *const c_char,
    context: *mut c_void,
    fetch: PbFetchFn,
    rank: u32,
    has_rank: bool,
}

#[repr(C)]
struct PbHostServices {
    struct_size: u32,
    abi_version: u32,
    host_context: *mut c_void,
    register_fetcher: extern "C" fn(host_context: *mut c_void, fetcher: *const PbFetcher) -> c_int,
    log: extern "C" fn(host_context: *mut c_void, level: c_int, message: *const c_char),
    config_value: extern "C" fn(host_context: *mut c_void, key: *const c_char) -> *const c_char,
    http_get: extern "C" fn(
        host_context: *mut c_void,
        url: *const c_char,
        timeout_ms: u32,
        completion: PbHttpCompletionFn,
        request_context: *mut c_void,
    ),
}

#[repr(C)]
struct PbPluginDescriptor {
    magic: u32,
    abi_version: u32,
    struct_size: u32,
    name: *const c_char,
    version: *const c_char,
    register_plugin: extern "C" fn(services: *const PbHostServices) -> c_int,
    description: *const c_char,
    author: *const c_char,
    license: *const c_char,
    homepage: *const c_char,
    api_base_url: *const c_char,
}

// The header's layout on 64-bit targets; a mismatch fails the build.
const _: () = assert!(std::mem::size_of::<PbPluginDescriptor>() == 80);
const _: () = assert!(std::mem::size_of::<PbHostServices>() == 48);
const _: () = assert!(std::mem::size_of::<PbFetcher>() == 48);

// ---------------------------------------------------------------------------
// The plugin
// ---------------------------------------------------------------------------

const SYMBOL: &CStr = c"ADA";
const DISPLAY_NAME: &CStr = c"Cardano";

/// The host's services table, valid for the life of the process.
static HOST: AtomicPtr<PbHostServices> = AtomicPtr::new(std::ptr::null_mut());
/// `config_value("api_base_url")`, read once in `register_plugin`.
static API_BASE_URL: OnceLock<String> = OnceLock::new();

/// NB: raw pointers are not `Sync`; the descriptor is immutable static data.
struct Descriptor(PbPluginDescriptor);
unsafe impl Sync for Descriptor {}

static DESCRIPTOR: Descriptor = Descriptor(PbPluginDescriptor {
    magic: PB_PLUGIN_MAGIC,
    abi_version: PB_PLUGIN_ABI_VERSION,
    struct_size: std::mem::size_of::<PbPluginDescriptor>() as u32,
    name: c"CardanoRustPlugin".as_ptr(),
    version: c"1.0.0".as_ptr(),
    register_plugin,
    description: c"Spot prices of Cardano from a Coinbase-compatible API, in Rust.".as_ptr(),
    author: std::ptr::null(),
    license: c"MIT".as_ptr(),
    homepage: std::ptr::null(),
    // NULL: the host's default API, https://api.coinbase.com, unless the user names another.
    api_base_url: std::ptr::null(),
});

/// The entry point the host looks up (`PB_PLUGIN_ENTRY_SYMBOL`).
#[no_mangle]
pub extern "C" fn patchbay_plugin_entry() -> *const c_void {
    &DESCRIPTOR.0 as *const PbPluginDescriptor as *const c_void
}

fn host() -> &'static PbHostServices {
    // Set in register_plugin, before the host can call `fetch`.
    unsafe { &*HOST.load(Ordering::Acquire) }
}

fn log(services: &PbHostServices, level: c_int, message: &str) {
    let line = CString::new(message.replace('\0', " ")).unwrap_or_default();
    (services.log)(services.host_context, level, line.as_ptr());
}

extern "C" fn register_plugin(services: *const PbHostServices) -> c_int {
    if services.is_null() {
        return PB_ERR_INVALID_ARGUMENT;
    }
    let services = unsafe { &*services };
    if (services.struct_size as usize) < std::mem::size_of::<PbHostServices>() || services.abi_version != PB_PLUGIN_ABI_VERSION {
        return PB_ERR_INVALID_ARGUMENT;
    }
    HOST.store(services as *const PbHostServices as *mut PbHostServices, Ordering::Release);

    let base = (services.config_value)(services.host_context, c"api_base_url".as_ptr());
    if base.is_null() {
        log(services, PB_LOG_ERROR, "CardanoRustPlugin needs api_base_url, and the host did not set it");
        return PB_ERR_PLUGIN_FAILED;
    }
    let base = unsafe { CStr::from_ptr(base) }.to_string_lossy().into_owned();
    let _ = API_BASE_URL.set(base);

    let fetcher = PbFetcher {
        struct_size: std::mem::size_of::<PbFetcher>() as u32,
        symbol: SYMBOL.as_ptr(),
        display_name: DISPLAY_NAME.as_ptr(),
        context: std::ptr::null_mut(),
        fetch,
        rank: PB_RANK_SECONDARY,
        has_rank: true,
    };
    match (services.register_fetcher)(services.host_context, &fetcher) {
        PB_OK => PB_OK,
        PB_ERR_DUPLICATE => {
            log(services, PB_LOG_WARNING, "ADA is registered twice; the first fetcher stays");
            PB_OK
        }
        status => {
            log(services, PB_LOG_ERROR, &format!("the host refused the ADA fetcher with status {status}"));
            PB_ERR_PLUGIN_FAILED
        }
    }
}

/// One fetch in flight, owned by the HTTP request until its completion.
struct Pending {
    completion: PbFetchCompletionFn,
    completion_context: *mut c_void,
    currency: String,
    url: String,
}

extern "C" fn fetch(
    _context: *mut c_void,
    request: *const PbFetchRequest,
    completion: PbFetchCompletionFn,
    completion_context: *mut c_void,
) {
    // The request is only valid during this call: copy what the completion needs.
    let currency = unsafe { CStr::from_ptr((*request).currency) }.to_string_lossy().into_owned();
    let timeout = unsafe { (*request).timeout_ms };
    let base = API_BASE_URL.get().map(String::as_str).unwrap_or("");
    let url = format!("{base}/v2/prices/ADA-{currency}/spot");
    let url_text = CString::new(url.clone()).unwrap_or_default();
    let pending = Box::new(Pending { completion, completion_context, currency, url });
    let services = host();
    (services.http_get)(services.host_context, url_text.as_ptr(), timeout, on_response, Box::into_raw(pending) as *mut c_void);
}

extern "C" fn on_response(request_context: *mut c_void, response: *const PbHttpResponse) {
    let pending = unsafe { Box::from_raw(request_context as *mut Pending) };
    let pair = format!("ADA-{}", pending.currency);
    let outcome = match unsafe { response.as_ref() } {
        None => Err(format!("Could not reach {}: no response", pending.url)),
        Some(response) if !response.error.is_null() => {
            let reason = unsafe { CStr::from_ptr(response.error) }.to_string_lossy();
            Err(format!("Could not reach {}: {reason}", pending.url))
        }
        Some(response) => {
            let body: &[u8] = if response.body.is_null() {
                &[]
            } else {
                unsafe { std::slice::from_raw_parts(response.body, response.body_length) }
            };
            answer(response.status, body, &pair)
        }
    };
    let currency = CString::new(pending.currency.clone()).unwrap_or_default();
    let mut result = PbFetchResult {
        struct_size: std::mem::size_of::<PbFetchResult>() as u32,
        base: std::ptr::null(),
        currency: std::ptr::null(),
        amount: std::ptr::null(),
        error: std::ptr::null(),
    };
    // Both strings outlive the completion call below, as the header asks.
    let amount;
    let error;
    match outcome {
        Ok(text) => {
            amount = CString::new(text).unwrap_or_default();
            result.base = SYMBOL.as_ptr();
            result.currency = currency.as_ptr();
            result.amount = amount.as_ptr();
        }
        Err(message) => {
            // One line, within the host's 512-byte limit.
            let mut line: String = message.replace(['\n', '\r', '\0'], " ");
            while line.len() > 500 {
                line.pop();
            }
            error = CString::new(line).unwrap_or_default();
            result.error = error.as_ptr();
        }
    }
    (pending.completion)(pending.completion_context, &result);
}

/// The amount from a 200 body, or the one-line error for anything else.
fn answer(status: i32, body: &[u8], pair: &str) -> Result<String, String> {
    let json = Json::parse(body);
    if status != 200 {
        let first = json.as_ref().and_then(|json| json.get("errors")).and_then(|errors| errors.index(0));
        let message = first.and_then(|entry| entry.get("message")).and_then(Json::string);
        let id = first.and_then(|entry| entry.get("id")).and_then(Json::string);
        return Err(match (message, id) {
            (Some(message), Some(id)) => format!("Coinbase answered HTTP {status} for {pair}: {message} ({id})"),
            (Some(text), None) | (None, Some(text)) => format!("Coinbase answered HTTP {status} for {pair}: {text}"),
            (None, None) => format!("Coinbase answered HTTP {status} for {pair}"),
        });
    }
    let amount = json.as_ref().and_then(|json| json.get("data")).and_then(|data| data.get("amount")).and_then(Json::string);
    match amount {
        None => Err(format!("Could not decode the Coinbase response for {pair}: the key \"data.amount\" is missing or not a string")),
        Some(amount) if !is_plain_decimal(amount) => {
            Err(format!("Could not decode the Coinbase response for {pair}: \"{amount}\" is not a decimal amount"))
        }
        Some(amount) => Ok(amount.to_string()),
    }
}

/// `-?[0-9]+(\.[0-9]+)?`: what the host accepts as an amount.
fn is_plain_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let fraction = parts.next();
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    all_digits(whole) && fraction.map_or(true, all_digits)
}

// ---------------------------------------------------------------------------
// A small JSON reader: strings stay the exact text that was sent.
// ---------------------------------------------------------------------------

enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    Text(String),
    /// A number, true, false or null: not needed here.
    Other,
}

impl Json {
    fn parse(bytes: &[u8]) -> Option<Json> {
        let mut at = 0;
        let value = Self::value(bytes, &mut at, 0)?;
        Self::space(bytes, &mut at);
        (at == bytes.len()).then_some(value)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    fn index(&self, index: usize) -> Option<&Json> {
        match self {
            Json::Array(elements) => elements.get(index),
            _ => None,
        }
    }

    fn string(&self) -> Option<&str> {
        match self {
            Json::Text(text) => Some(text),
            _ => None,
        }
    }

    fn space(bytes: &[u8], at: &mut usize) {
        while *at < bytes.len() && matches!(bytes[*at], b' ' | b'\t' | b'\n' | b'\r') {
            *at += 1;
        }
    }

    // `depth` bounds nesting, so a hostile body cannot exhaust the stack.
    fn value(bytes: &[u8], at: &mut usize, depth: usize) -> Option<Json> {
        Self::space(bytes, at);
        if depth > 64 {
            return None;
        }
        match *bytes.get(*at)? {
            b'{' => {
                *at += 1;
                let mut members = Vec::new();
                Self::space(bytes, at);
                if bytes.get(*at) == Some(&b'}') {
                    *at += 1;
                    return Some(Json::Object(members));
                }
                loop {
                    Self::space(bytes, at);
                    let key = Self::text(bytes, at)?;
                    Self::space(bytes, at);
                    if bytes.get(*at) != Some(&b':') {
                        return None;
                    }
                    *at += 1;
                    members.push((key, Self::value(bytes, at, depth + 1)?));
                    Self::space(bytes, at);
                    match bytes.get(*at)? {
                        b',' => *at += 1,
                        b'}' => {
                            *at += 1;
                            return Some(Json::Object(members));
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                *at += 1;
                let mut elements = Vec::new();
                Self::space(bytes, at);
                if bytes.get(*at) == Some(&b']') {
                    *at += 1;
                    return Some(Json::Array(elements));
                }
                loop {
                    elements.push(Self::value(bytes, at, depth + 1)?);
                    Self::space(bytes, at);
                    match bytes.get(*at)? {
                        b',' => *at += 1,
                        b']' => {
                            *at += 1;
                            return Some(Json::Array(elements));
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => Self::text(bytes, at).map(Json::Text),
            _ => {
                let start = *at;
                while *at < bytes.len() && !matches!(bytes[*at], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    *at += 1;
                }
                (*at > start).then_some(Json::Other)
            }
        }
    }

    /// A string, the cursor on its opening quote. Escapes are kept as sent
    /// except `\"` and `\\`; amounts and codes have none.
    fn text(bytes: &[u8], at: &mut usize) -> Option<String> {
        if bytes.get(*at) != Some(&b'"') {
            return None;
        }
        *at += 1;
        let mut text = Vec::new();
        loop {
            match *bytes.get(*at)? {
                b'"' => {
                    *at += 1;
                    return String::from_utf8(text).ok();
                }
                b'\\' => {
                    let escaped = *bytes.get(*at + 1)?;
                    text.push(if escaped == b'"' || escaped == b'\\' { escaped } else { b'?' });
                    *at += 2;
                }
                byte => {
                    text.push(byte);
                    *at += 1;
                }
            }
        }
    }
}
