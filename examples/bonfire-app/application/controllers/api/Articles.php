<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * API articles: JSON access to the blog's articles.
 */
class Articles extends CI_Controller
{
    public function __construct()
    {
        parent::__construct();
        $this->load->model('blog/post_model');
        $this->output->set_content_type('application/json');
    }

    public function index()
    {
        $this->output->set_output(json_encode($this->post_model->find_all()));
    }

    public function create()
    {
        $id = $this->post_model->insert($this->input->post());
        $this->output->set_status_header(201)->set_output(json_encode(array('id' => $id)));
    }

    public function show($id)
    {
        $this->output->set_output(json_encode($this->post_model->find((int) $id)));
    }

    public function replace($id)
    {
        $this->post_model->replace((int) $id, $this->input->input_stream());
        $this->output->set_status_header(204);
    }

    public function update($id)
    {
        $this->post_model->update((int) $id, $this->input->input_stream());
        $this->output->set_status_header(204);
    }

    public function remove($id)
    {
        $this->post_model->delete((int) $id);
        $this->output->set_status_header(204);
    }

    public function preflight($id = null)
    {
        $this->output
            ->set_header('Access-Control-Allow-Methods: GET, POST, PUT, PATCH, DELETE, OPTIONS')
            ->set_status_header(204);
    }
}
