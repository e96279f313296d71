"""Comment sections and forum replies come out as CommentData, never in the body."""

from datetime import UTC, datetime

from pipelines.article import extract_article
from pipelines.document import load_document

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
BODY = "".join(f"<p>Paragraph {i}: the council met on Monday, and it approved the plan; "
               f"residents, however, were not convinced.</p>" for i in range(6))
COMMENTS = "".join(
    f'<li class="comment" id="comment-{i}"><div class="comment-author">reader{i}</div>'
    f'<time datetime="2023-05-0{i + 1}T08:00:00Z">May {i + 1}</time>'
    f'<div class="comment-text"><p>I think point {i} is wrong, honestly.</p></div>'
    f'<a class="reply-link" href="#">Reply</a></li>' for i in range(3)
)
BLOG = f"""<html><body><article><h1>Council approves plan</h1>{BODY}</article>
<section id="comments"><h3>3 comments</h3><ol class="comment-list">{COMMENTS}</ol></section>
</body></html>"""


def test_comment_section_is_split_into_comments() -> None:
    art = extract_article(load_document(BLOG.encode(), fetched_at=NOW))
    assert [c.author for c in art.comments] == ["reader0", "reader1", "reader2"]
    assert art.comments[1].text == "I think point 1 is wrong, honestly."
    assert art.comments[2].published_at == datetime(2023, 5, 3, 8, 0, tzinfo=UTC)
    assert "honestly" not in art.content_text
    assert "Paragraph 5" in art.content_text


OPENING = "楼主说：今天天气很好，我们去爬山吧，大家一起报名参加。"
POSTS = "".join(
    f'<div class="post" id="post_{i}"><div class="postauthor">user{i}</div>'
    f'<div class="postinfo">发表于 2023-05-0{i + 1} 10:0{i}</div>'
    f'<div class="postmessage">{OPENING * (3 if i == 0 else 1)}'
    f"第{i}楼的内容。</div></div>" for i in range(4)
)
THREAD = f"""<html><body><div class="nav"><a href="/">论坛首页</a></div>
<h1>周末去爬山</h1><div id="postlist">{POSTS}</div></body></html>"""


def test_forum_thread_first_post_is_body_rest_are_replies() -> None:
    art = extract_article(load_document(THREAD.encode(), fetched_at=NOW))
    assert "第0楼" in art.content_text and "第1楼" not in art.content_text
    assert [c.author for c in art.comments] == ["user1", "user2", "user3"]
    assert art.comments[0].published_at == datetime(2023, 5, 2, 10, 1)
    assert "第2楼的内容" in art.comments[1].text
