package io.echomq.sample;

import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /signups} with {@code {"email": "...", "name": "..."}}.
 *
 * @author EchoMQ
 */
@RestController
public class SignupController {

	private final SignupService signups;

	public SignupController(SignupService signups) {
		this.signups = signups;
	}

	@PostMapping("/signups")
	@ResponseStatus(HttpStatus.ACCEPTED)
	public Map<String, List<String>> signUp(@RequestBody Signup signup) {
		return Map.of("jobs", this.signups.signUp(signup).stream().map(JobId::toString).toList());
	}

}
