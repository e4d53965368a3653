"""One error shape for every refusal: ``{"error": {"code", "message"}}`` with a 4xx status."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from spielcenter.services.common import ServiceError

STATUS_OF_CODE = {
    "not_found": 404,
    "no_session": 401,
    "bad_login": 401,
    "csrf": 403,
    "already_claimed": 409,
    "name_taken": 409,
    "rate_limited": 429,
    "too_many_reviews": 429,
    # the lobby (docs/protocol.md, "Lobby over HTTP")
    "insufficient_taler": 402,
    "claim_required": 403,
    "table_withdrawn": 409,
    "invite_required": 403,
    "table_full": 409,
    "already_seated": 409,
    "not_waiting": 409,
    "not_seated": 409,
    "not_started": 409,
}


class ApiError(Exception):
    """A refusal raised by the server layer itself (session, CSRF, rate limit)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The JSON answer of a refused request."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _describe(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts) or "the request is not valid"


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal in the protocol's error shape."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return error_response(STATUS_OF_CODE.get(exc.code, 400), exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(400, "bad_request", _describe(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return error_response(exc.status_code, code, str(exc.detail))
