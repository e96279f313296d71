"""Every tunable number of the extraction package, in one place, one section per part.

Algorithms take these frozen dataclasses as a `params` argument defaulting to the
module-level instance, so a benchmark can sweep them without editing code. Why a value
was chosen: docs/DECISIONS.md (article route) and docs/DECISIONS.md (page type,
records, template diff, node labelling).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NoiseFilterParams:
    """Node labelling: thresholds that drop link/form noise while linearising the DOM."""

    min_chars: int = 10  # T1
    max_links: int = 8  # T2: more links than this → link node (noise)
    # T3: form characters / characters above this → form node (docs/DECISIONS.md,
    # "Noise filter").
    form_char_ratio: float = 0.8
    min_links: int = 0  # T4
    chars_per_link: float = 10.0  # T5


@dataclass(frozen=True)
class RecordMiningParams:
    """Record mining: when two sibling subtrees are records of one list, and which set is
    the page's list."""

    max_height_diff: int = 3  # height difference below this
    max_size_diff_share: float = 0.30  # node-count difference below this share of the total
    min_similarity: float = 0.70  # tree-matching similarity at least this
    # Bounds that keep mining linear on big pages.
    max_record_nodes: int = 400  # larger subtrees are containers, never compared as records
    max_record_height: int = 30  # also keeps tree matching well inside Python's recursion limit
    sibling_window: int = 4  # each child is compared with the next few, not with all siblings
    max_record_span: int = 3  # records made of up to this many adjacent siblings (dt + dd …)
    min_records: int = 2  # fewer similar subtrees than this is not a list
    template_sample: int = 48  # records aligned to build the field template
    min_region_score: float = 30.0  # below it the best set is a menu or noise, not a list
    noise_hint_factor: float = 0.3  # score kept by a set inside nav/footer/sidebar/'most read'
    cousin_levels: int = 3  # how far up a shared similar ancestor is looked for (split lists)
    min_linked_share: float = 0.5  # fewer records with a link than this: not a list
    min_title_chars: int = 10  # records whose best link text is shorter read like menu items
    titles_per_record: float = 1.5  # more title-like links per record: a container of items
    min_slot_share: float = 0.5  # a slot holds links / dates when this share of records do
    min_snippet_chars: int = 40  # a plain-text slot this long on average is the snippet
    max_next_label_chars: int = 12  # a link with a "next" class and a label this short


@dataclass(frozen=True)
class TemplateDiffParams:
    """Template diff: alignment of target and sibling feature trees, and block scoring."""

    substitution_threshold: float = 0.5  # Ts: matched pairs below it are candidate blocks
    rank_points: tuple[int, int, int] = (5, 3, 1)  # top three groups per metric
    link_ratio_points: tuple[int, int, int] = (-5, -3, -1)  # penalty for link ratio
    close_score_margin: int = 2  # "close" scores: one rank step (5 vs 3)
    max_dp_cells: int = 200_000  # bounds alignment time on huge pages
    min_template_match: float = 0.5  # share of a cached template's text found, or re-learn
    image_chars: int = 300  # renderer-free area: an inline image covers about 300 characters


@dataclass(frozen=True)
class PageTypeParams:
    """Page-type classification: below `min_confidence` a page is stored as 'other', unless
    list is the best candidate, or the second after 'other' (then 'list': a list stored as
    'other' is never revisited), or an article type is the best and 'other' is not second
    (then the best guess: a list read as an article and an article read as a list are each
    lost once, see pagetype.classify_page), or one block of prose dominates a page the
    classifier calls list (then the best article type). Why these values:
    docs/DECISIONS.md, "Unsure pages", "Prose-dominated pages", "Unsure lists
    keep their text" and "Page-type rules after the model"."""

    min_confidence: float = 0.5
    # A page the classifier calls list goes to article extraction when one block holds this
    # many bytes of prose (UTF-8 without whitespace, see page_features.dominant_prose) and this
    # share of its link-free text.
    prose_block_bytes: int = 800
    prose_block_share: float = 0.6
    # A page the classifier calls list below this confidence keeps its main text too (an
    # article row beside its records, see process.extract): an article misread as a list keeps
    # its body. Lists decided by a rule (URL, site) are sure.
    sure_list_confidence: float = 0.8
    # A <head> that declares a publication date keeps a page on the article route only when
    # its visible text shows at least this many dates (or <time> elements): a theme that
    # stamps article:published_time on its about, contact and tag pages shows none there.
    # 0 lets the declaration alone decide. (docs/DECISIONS.md, "Page-type rules after the
    # model")
    declared_needs_body_dates: int = 1
    # The model unsure between article and list (those the two best routes, the best below
    # this): a page with at least `linked_headings_list` h1/h2 headings that link to another
    # page (each a listed post's title; an article's headline links nowhere, or to itself) is
    # a list. 0 turns the rule off.
    linked_headings_unsure: float = 0.8
    linked_headings_list: int = 3
    # A linked heading counts (here and for lone posts below) when this much text (UTF-8 bytes
    # without whitespace) follows it before the next h1-h3: a listed post's excerpt or whole
    # text; a box of related links stacks its linked headings with none between them.
    linked_heading_text_bytes: int = 100
    # A lone post: list the best route below this confidence, article the second, at most
    # `post_max_linked_headings` linked heading and `lone_post_min_dates`–`lone_post_max_dates`
    # dates of its own in the visible text (a list of dated items shows one per item) is an
    # article. 0 turns the rule off.
    lone_post_list_below: float = 0.8
    lone_post_min_dates: int = 1
    lone_post_max_dates: int = 2
    # A post's marks (lone posts, posts on a list, dated prose) allow this many headings that
    # link away: an article's headline may link to its permalink under another address than
    # the page's (no URL known, http for https, a tracking query); a list titles two records
    # or more. Dates are the page's own, outside links (page_features.own_dates).
    post_max_linked_headings: int = 1
    # A page the classifier calls list, however sure, that shows a lone post's marks (article
    # the second route, a post's marks: `lone_post_min_dates` to this many dates) and a
    # block of at least `post_on_list_prose_bytes` of prose (page_features.dominant_prose)
    # stays a list but keeps its main text (pagetype.POST_ON_LIST). 0 turns the rule off.
    post_on_list_max_dates: int = 3
    post_on_list_prose_bytes: int = 300
    # Such a page whose head says og:type "article" is an article (`og_article_post`): the
    # page's own declaration beside a post's marks. Themes that write "article" on every page
    # do so on indexes that date one record each, so the marks are not theirs. False keeps
    # it a list with its text.
    og_article_post: bool = True
    # A page the classifier calls 'other', article one of its two best routes and the best
    # below `other_unsure_below` (0 turns both rules off; the bound sits below where a law's
    # text labelled 'other', one block of prose, is read from fold to fold: docs/DECISIONS.md,
    # "Page-type rules after the model"), is an article when it shows a
    # post's marks (one linked heading at most, one or two dates) and a prose block of
    # `dated_prose_bytes` (0 turns that rule off, pagetype._dated_prose), or when one block
    # of prose dominates it (`prose_block_bytes` and `prose_block_share` above).
    other_unsure_below: float = 0.6
    dated_prose_bytes: int = 400
    # The dates of `dated_prose` include numeric ones written day (or month) first
    # ("05/10/2018", "5.10.2018") on a page that shows no date in the other forms
    # (page_features.own_dates). Not for the other post marks: on a list the classifier leans to
    # (`lone_post`) it turned a labelled shop listing into a post.
    day_first_dates: bool = True
    # A page whose <body> class says the theme rendered one post ("single-post": WordPress
    # and the themes that copy its body classes) is an article whatever the model says
    # (`single_post`); its pages, archives and indexes carry "page", "archive", "home".
    single_post_class: bool = True
    # `linked_headings` spares a page whose main prose (page_features.prose_headline) comes
    # before any heading that links away: the linked headings are a rail of other stories
    # after the article, where a digest or tag page titles its first record before its text.
    headline_prose: bool = True


@dataclass(frozen=True)
class DensityParams:
    """Density extraction (CETD and punctuation density): which density drives it, and how
    far the content may reach. The chosen values: docs/DECISIONS.md, 'Density extraction'."""

    density: str = "composite"  # one of: punctuation, text, composite (CETD)
    tie_break: str | None = None  # a second density added with a small weight, or None
    tie_break_weight: float = 0.0
    # "page": Extract from <body> as CETD does; "root": only inside the node of largest
    # DensitySum (widened by _region), so teaser lists elsewhere on the page are never marked.
    scope: str = "root"
    sibling_share: float = 0.3  # _region: a sibling branch this dense widens the root
    max_climb: int = 3  # _region: how many levels above the root may be searched
    max_link_share: float = 0.8  # blocks inside the content with more link text are dropped


# --- article route (body, boilerplate, comments, metadata, dates) ---


@dataclass(frozen=True)
class BoilerplateParams:
    """Named page furniture (article.boilerplate)."""

    page_form_share: float = 0.5  # of the page's text, held by a <form> that is the page itself


@dataclass(frozen=True)
class PageBlockParams:
    """The blocks near the headline where bylines and dates live (article.blocks)."""

    max_byline_chars: int = 80  # a longer block is read only for its opening (its head)
    max_raw_chars: int = 800  # a block's text with its layout whitespace; longer is not read
    blocks_before_title: int = 150  # kickers, meta lines and breadcrumbs above the headline
    blocks_after_title: int = 400


@dataclass(frozen=True)
class StructuredDataParams:
    """Metadata declared for machines (article.metadata.structured)."""

    # JSON-LD nested deeper is read loosely, field by field, never parsed: Python's parser
    # recurses once per level and failed the page near its recursion limit. Real pages nest
    # far less (docs/RELIABILITY.md, "Bad bytes").
    max_json_ld_depth: int = 32


@dataclass(frozen=True)
class TitleParams:
    """The headline (article.metadata.titles)."""

    site_part_ratio: float = 1.5  # the last title part is the headline when this much longer
    min_site_key: int = 4  # shorter site keys match only whole title parts
    min_lone_h1_words: int = 3  # a lone <h1> or a heading this long is headline-sized
    min_short_h1_words: int = 2  # an <h1> cut from the headline has at least this many words
    min_word_overlap: float = 0.5  # share of words an <h1> and a headline have in common
    opening_chars: int = 300  # the opening of the article text, where a headline may stand
    heading_reach: int = 30  # elements between the headline and the text's first line
    min_opening_chars: int = 20  # of the text's first line, for an element to start it
    min_cjk_headline: int = 6  # Chinese/Japanese characters that make a headline
    continued_reach: int = 5  # elements after the <h1> where its continued form may stand


@dataclass(frozen=True)
class BylineParams:
    """The author and source (article.metadata.byline)."""

    lone_by_reach: int = 3  # blocks after a lone "by" looked at for the name
    max_name_words: int = 4  # "Dr. Karin J. Schmitz"
    credit_depth: int = 2  # ancestors of a byline looked at for a credit or licence block
    inner_name_elements: int = 8  # elements looked at in a long labelled line for the name
    max_by_line: int = 60  # an unmarked "By …" line longer than this is prose
    max_author_links_chars: int = 80  # a line of several author links, at most


@dataclass(frozen=True)
class PublishDateParams:
    """Choosing an article's publish date (article.dates.publish)."""

    near_title_blocks: int = 30  # the headline's own lines: this many blocks below it
    near_above_blocks: int = 3  # a date line just above the headline (a kicker's date)
    dateline_chars: int = 40  # a date this near the start of a longer text opens it
    label_reach_chars: int = 80  # text after a publication label read for its date
    month_window: int = 24  # characters either side of a year where a date is read
    text_date_chars: int = 300  # the opening of the article text, read for a date last


@dataclass(frozen=True)
class DateParseParams:
    """Reading dates (article.dates.parse)."""

    max_future_days: int = 1  # a year-less date further ahead than this is last year's


@dataclass(frozen=True)
class CnFieldParams:
    """Chinese labelled lines: 作者：/来源：/发布时间： (article.dates.cn_fields)."""

    max_value_chars: int = 24  # a name, an outlet, a date: an interview's question is longer
    max_line_chars: int = 120  # a byline, date or breadcrumb line; paragraphs run longer


@dataclass(frozen=True)
class CommentParams:
    """Comment sections and their items (article.comments.sections, items, shapes) and a
    comment's time (article.dates.comment)."""

    min_repeats: int = 2  # same-shape siblings that make a repeated group
    min_comment_chars: int = 2
    max_name_chars: int = 60  # an author's name, a heading, a form label, a header part
    dated_name_share: float = 0.5  # a link this much date is a time link, not a name
    max_header_chars: int = 400  # a header line as written (pages pad " | " with spaces)
    max_header_elements: int = 12  # a header line is a few elements; a comment body more
    max_cell_elements: int = 64  # a poster's cell (name, rank, counters)
    comment_date_chars: int = 200  # a comment's opening, read for its date
    min_single_chars: int = 20  # a section without repeated items is one comment this long
    max_notice_chars: int = 300  # "No comments yet", "Comments are closed" and the like
    min_said_words: int = 2  # a short signed comment says more than a label
    min_unnamed_comment_chars: int = 15
    max_unnamed_comment_chars: int = 3000
    max_unnamed_link_share: float = 0.4
    cue_chars: int = 300  # a comment's author, date and cue words sit near its start


@dataclass(frozen=True)
class ThreadParams:
    """Forum threads: the repeated post blocks (article.comments.threads)."""

    min_post_chars: int = 20
    max_post_link_share: float = 0.3
    post_date_chars: int = 300  # a post's opening, where its date stands
    min_thread_share: float = 0.5  # the posts hold at least this share of the page's text
    max_post_groups: int = 5  # the largest groups tried as the thread's posts
    min_posts: int = 2  # a repeated group's posts: an opening post and a reply
    # between a thread's <h1> and its first post, visible characters: a stats line, whose
    # poster name varies (opendcl: 64-89, "Started by NAME · TIME · N replies · topic #N")
    max_headline_gap_chars: int = 120


@dataclass(frozen=True)
class LanguageParams:
    """The language of a text by script or stopwords (pipelines.language)."""

    sample_chars: int = 5000
    min_kana: int = 20  # kana characters that make a text Japanese
    min_script_share: float = 0.2  # of the non-space characters, for a script to decide
    min_stopwords: int = 3


BOILERPLATE = BoilerplateParams()
PAGE_BLOCKS = PageBlockParams()
STRUCTURED_DATA = StructuredDataParams()
TITLES = TitleParams()
BYLINE = BylineParams()
PUBLISH_DATE = PublishDateParams()
DATE_PARSE = DateParseParams()
CN_FIELDS = CnFieldParams()
COMMENTS = CommentParams()
THREADS = ThreadParams()
LANGUAGE = LanguageParams()


# --- page type, records, template diff, node labelling, documents ---


@dataclass(frozen=True)
class DecodingParams:
    """How a page's bytes are decoded (pipelines.document)."""

    binary_sniff_bytes: int = 1024  # head searched for NUL bytes and binary signatures
    sniff_bytes: int = 4096  # head searched for a <meta charset>
    detect_sample_bytes: int = 65536  # bytes the statistical detector reads
    # a declared charset is rejected when it leaves more than this share of U+FFFD
    max_replacement_share: float = 0.002
    # mostly-valid UTF-8: at least this many well-formed non-ASCII characters per corrupt one
    utf8_good_per_bad: int = 4


DECODING = DecodingParams()


@dataclass(frozen=True)
class PageBoundsParams:
    """What one page may cost (pipelines.bounds): caps on what is considered of a huge or
    hostile page, each far above what the largest real pages hold, so that a normal page is
    read whole and a hostile one in bounded time and memory, its first items still read.
    Evidence: docs/RELIABILITY.md, "Bounded pages"."""

    max_markup_chars: int = 10_000_000  # bytes (or characters) parsed (real pages: 2.8 MB)
    # a start tag of more than long_tag_runs values and runs of up to long_tag_run other
    # characters is read attribute by attribute: libxml2's HTML parser is quadratic in them
    long_tag_run: int = 64
    long_tag_runs: int = 64
    max_attributes: int = 1000  # attributes kept of one element (real pages: at most 70)
    max_elements: int = 30_000  # elements kept, in document order (real pages: 9,847)
    max_text_chars: int = 1_000_000  # characters kept of one text node (real: 52,219)
    max_links: int = 10_000  # links a page offers to the crawl (real pages: 3,850)
    max_records: int = 5_000  # records mined from one list
    # CPU seconds a page may take from its loading to the end of its extraction, for the
    # `extract` and `batch` commands (the crawler's is PAGE_TIME_BUDGET_SECONDS)
    time_budget_seconds: float = 3.0


PAGE_BOUNDS = PageBoundsParams()


@dataclass(frozen=True)
class SiblingParams:
    """Same-template sibling URLs (pipelines.siblings)."""

    slug_min_words: int = 3  # a path stem of this many words is a title slug …
    slug_min_alpha_words: int = 2  # … when this many of them are alphabetic
    max_candidates: int = 2  # siblings returned, closest first


SIBLINGS = SiblingParams()


@dataclass(frozen=True)
class PageFeatureParams:
    """Page-type classification: the URL and page features the model reads. The shipped
    model was trained with these values: change them only with a retrained model."""

    min_url_year: int = 1990  # a URL date's year range (product ids like 1234-56 are no dates)
    max_url_year: int = 2099
    headline_bytes: int = 24  # link text this heavy reads as a headline (8 CJK chars)
    run_candidates: int = 5  # longest raw gaps re-weighed to find the longest link-free run
    # a text node this long (characters) is prose; shorter ones are menu items and labels.
    # See docs/DECISIONS.md, "Prose-dominated pages".
    prose_min_chars: int = 20
    month_window: int = 24  # bytes before a year searched for its month's name ("Oct 25, ")


PAGE_FEATURES = PageFeatureParams()


@dataclass(frozen=True)
class PageTypeModelParams:
    """The page-type model's feature scaling, shared by training and inference."""

    clip: float = 3.0  # normalised features are clipped to ±clip


PAGE_TYPE_MODEL = PageTypeModelParams()


@dataclass(frozen=True)
class PageTypeTrainingParams:
    """Page-type training (pipelines.training.pagetype, `train-pagetype`). Why these values:
    docs/DECISIONS.md, "Page-type training"."""

    classifier_c: float = 1.0  # logistic regression regularisation
    logistic_max_iter: int = 5000  # the classifier's and the gate's solver
    svm_c: float = 0.5  # LinearSVC, SVM-RFE's ranking model (--rfe)
    svm_max_iter: int = 20000
    gate_c: float = 1.0  # the list gate's logistic regression
    gate_threshold: float = 0.7  # the gate overrides the classifier only when this sure
    inner_folds: int = 3  # grouped folds for the out-of-fold temperature and RFE
    fold_seed: int = 0
    temperature_log_range: tuple[float, float] = (-1.5, 1.5)  # log10 of the grid's ends
    temperature_steps: int = 61
    article_weight: float = 0.3  # an --articles page against a labelled page
    urlless_article_weight: float = 0.05  # an --articles page without URL
    # a domain holding this share of a URL-less page's links (hubs left out) is its site
    link_site_share: float = 0.2
    # Whole labelled sites (`--sites`): at most this many pages of one type a site, each
    # weighing `site_page_weight` against a labelled page, so no one site's template (thousands
    # of forum threads) outweighs the others.
    site_pages_per_type: int = 60
    site_page_weight: float = 0.5


PAGE_TYPE_TRAINING = PageTypeTrainingParams()


@dataclass(frozen=True)
class NodeFeatureParams:
    """Node labelling: the block features the CRF reads (pipelines.labelling). Bucket edges
    name the features, so the shipped model was trained with these values: change them only
    with a retrained model."""

    context_levels: int = 3  # ancestors whose subtree counts a block carries
    near_ancestors: int = 3  # the element and its closest ancestors: "near" attribute cues
    cjk_weight: int = 3  # a CJK character counts as this many Latin ones
    sign_window: int = 200  # sign features read the head of long blocks only
    cue_window: int = 40  # cue words label a block only at its start
    length_edges: tuple[int, ...] = (5, 10, 20, 40, 80, 160, 320, 640)
    log_length_scale: float = 8.0
    link_share_edges: tuple[float, ...] = (0.0, 0.3, 0.7, 0.99)
    emphasis_edges: tuple[float, ...] = (0.0, 0.99)
    link_count_edges: tuple[int, ...] = (0, 1, 3)
    ancestor_share_edges: tuple[float, ...] = (0.02, 0.1, 0.3, 0.6)
    chars_per_link_edges: tuple[float, ...] = (5, 10, 20, 50, 200)
    unlinked_chars_per_link: float = 1000.0  # an ancestor without links reads as this
    repeat_edges: tuple[int, ...] = (1, 3, 9)
    digit_share_edges: tuple[float, ...] = (0.0, 0.1, 0.3)
    sentence_end_edges: tuple[int, ...] = (0, 1, 3)
    comma_edges: tuple[int, ...] = (0, 2)
    titlecase_min_words: int = 3  # a block of this many words, …
    titlecase_share: float = 0.6  # … this share capitalised, is title case
    date_only_share: float = 0.5  # a date this share of the squashed head: a date line
    depth_edges: tuple[int, ...] = (4, 8, 12, 16, 20)
    title_part_share: float = 0.5  # a block this share of a declared title repeats part of it
    title_wrap_factor: int = 2  # a block at most this times a title's length wraps it
    chars_per_link_mass: int = 10  # a linked block counts as text mass above this ratio
    position_edges: tuple[float, ...] = (0.1, 0.3, 0.5, 0.7, 0.9)
    mass_before_edges: tuple[float, ...] = (0.0, 0.1, 0.5, 0.9)
    to_longest_edges: tuple[int, ...] = (-10, -4, -1, 0, 3, 10)
    since_headline_edges: tuple[int, ...] = (1, 2, 5)


NODE_FEATURES = NodeFeatureParams()


@dataclass(frozen=True)
class LabellerTrainingParams:
    """Node-labeller training (pipelines.training): how ground-truth texts become block
    labels, the held-out split and the CRF's hyperparameters (`train-labeller` options)."""

    chunk: int = 16  # a long block matches when most of its chunks are in the reference
    min_coverage: float = 0.6
    min_chars: int = 8  # squashed characters: shorter blocks match by chance
    long_chars: int = 25  # a block shorter than this is body/comment only next to a long one
    neighbourhood: int = 2
    span_max_link_share: float = 0.3
    max_meta_chars: int = 120  # squashed characters of a title, author or date block
    title_similarity: float = 0.8
    min_name_chars: int = 4
    max_bylines: int = 2  # author (or time) blocks per page: the byline and maybe a repeat
    byline_after_body: int = 3
    header_window: int = 3  # blocks either side of the body's start searched for a dateline
    held_out_folds: int = 5  # one site in this many is held out
    c1: float = 0.1  # L1 penalty: sparser model
    c2: float = 0.01  # L2 penalty
    max_iterations: int = 200
    min_weight: float = 0.05  # attributes whose weights are all smaller are dropped
    weight_decimals: int = 4  # weights are rounded to this many decimals in the model JSON


LABELLER_TRAINING = LabellerTrainingParams()


NOISE_FILTER = NoiseFilterParams()
RECORD_MINING = RecordMiningParams()
TEMPLATE_DIFF = TemplateDiffParams()
PAGE_TYPE = PageTypeParams()
DENSITY = DensityParams()


# --- article body and comments: code listings, entries of a list ---


@dataclass(frozen=True)
class ArticlePartsParams:
    """Parts of an article that density and comment finding must read as such: code
    listings with their line numbers (article.body.density) and the entries of a list or
    digest, which are neither a thread's posts nor comments (article.comments.shapes)."""

    gutter_levels: int = 3  # how far above a line-number column the code it numbers starts
    min_entry_share: float = 0.8  # of a group's members that head themselves with a link
    min_repeats: int = 2  # entries (at least) that make a list
    max_field_chars: int = 60  # a cell of a data table's row (a date, a place, a title)
    prose_levels: int = 3  # a run's container levels searched for the article's prose after it
    min_prose_chars: int = 30  # a paragraph of text, not a caption or a "Read more"
    max_notice_chars: int = 200  # a reprint or copyright notice under a post, not a paragraph
    max_header_chars: int = 120  # date, byline and tags beside a post's headline, no standfirst


ARTICLE_PARTS = ArticlePartsParams()


@dataclass(frozen=True)
class LogLineParams:
    """What one log record may carry (pipelines.log_lines); the crawl's settings
    LOG_LINE_MAX_CHARS and LOG_RECORD_MAX_LINES default to these (docs/RELIABILITY.md,
    "Storage faults and logs")."""

    line_max_chars: int = 4096  # a line carries a URL of URLLENGTH_LIMIT and its message
    record_max_lines: int = 200  # Scrapy's statistics dump and a Twisted traceback fit


LOG_LINES = LogLineParams()
